import { useEffect, useState } from 'react';

/**
 * A number field that lets the text be edited freely (empty, "12.") while passing on each complete number; what
 * the board changes (a drag) shows at once unless the field holds the same number.
 */
export function NumberInput(props: {
  id: string;
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
}) {
  const [text, setText] = useState(String(props.value));
  useEffect(() => {
    setText((current) => (Number(current) === props.value && current.trim() !== '' ? current : String(props.value)));
  }, [props.value]);
  const clamp = (value: number) => Math.min(Math.max(value, props.min), props.max);
  return (
    <div className="field reading-number">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="number"
        inputMode="decimal"
        min={props.min}
        max={props.max}
        step={props.step}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          const value = Number(event.target.value);
          if (event.target.value.trim() !== '' && Number.isFinite(value)) props.onChange(clamp(value));
        }}
        onBlur={() => setText(String(props.value))}
      />
    </div>
  );
}

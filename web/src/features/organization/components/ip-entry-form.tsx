import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field.tsx';
import type { IpEntry } from '../api/replace-ip-restrictions.ts';
import { cidrContains, normaliseCidr } from './ipv4.ts';

/** Adds one entry to the (unsaved) list: an IPv4 address or CIDR with a note, or the caller's own address. */
export function IpEntryForm(props: {
  entries: IpEntry[];
  callerIp: string;
  maxEntries: number;
  onAdd: (entry: IpEntry) => void;
}) {
  const { t } = useTranslation(['organization', 'errors']);
  const [cidr, setCidr] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { entries, callerIp, maxEntries } = props;
  const full = entries.length >= maxEntries;
  const ownListed = entries.some((entry) => cidrContains(entry.cidr, callerIp));
  const ownAddable = normaliseCidr(callerIp) !== null && !ownListed;

  const add = (text: string, noteText: string): boolean => {
    const normalised = normaliseCidr(text);
    const reason = !normalised
      ? t('ip.invalid')
      : entries.some((entry) => entry.cidr === normalised)
        ? t('ip.duplicate')
        : full
          ? t('errors:IP_RESTRICTION_LIMIT', { max: maxEntries })
          : null;
    setProblem(reason);
    if (reason || !normalised) return false;
    props.onAdd({ cidr: normalised, note: noteText.trim() });
    return true;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add(cidr, note)) {
      setCidr('');
      setNote('');
    }
  };

  return (
    <form className="org-ip-form" onSubmit={submit} noValidate>
      <FormField
        id="ip-cidr"
        label={t('ip.cidr')}
        hint={t('ip.cidrHint')}
        value={cidr}
        inputMode="decimal"
        autoComplete="off"
        maxLength={18}
        errors={problem ? [problem] : []}
        onChange={(event) => {
          setCidr(event.target.value);
          setProblem(null);
        }}
      />
      <FormField
        id="ip-note"
        label={t('ip.note')}
        value={note}
        maxLength={200}
        autoComplete="off"
        onChange={(event) => setNote(event.target.value)}
      />
      <div className="org-actions">
        <button type="submit" className="button" disabled={full}>
          {t('ip.add')}
        </button>
        <button type="button" className="button" disabled={!ownAddable || full} onClick={() => add(callerIp, '')}>
          {t('ip.addMine')}
        </button>
      </div>
    </form>
  );
}

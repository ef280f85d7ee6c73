import { describe, expect, it } from 'vitest';
import { listQuery, nextSort, pageCount } from './list-params.ts';

describe('list helpers', () => {
  it('asks for the contract parameters, leaving an empty search out', () => {
    expect(listQuery({ q: '', sort: 'name', page: 2, size: 50 })).toEqual({
      sort: 'name',
      'page[number]': 2,
      'page[size]': 50,
    });
    expect(listQuery({ q: '営業', sort: '-createdAt', page: 1, size: 20 })).toEqual({
      'filter[q]': '営業',
      sort: '-createdAt',
      'page[number]': 1,
      'page[size]': 20,
    });
  });

  it('flips the direction of the sorted column and starts another column ascending', () => {
    expect(nextSort('name', 'name')).toBe('-name');
    expect(nextSort('-name', 'name')).toBe('name');
    expect(nextSort('name', 'createdAt')).toBe('createdAt');
    expect(nextSort('-name', 'createdAt')).toBe('createdAt');
  });

  it('counts at least one page', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});

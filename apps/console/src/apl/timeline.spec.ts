import { timelineQuery } from './timeline';

describe('event timeline query', () => {
  it('drops trailing take, sort and project, keeps the filters', () => {
    expect(timelineQuery("['sample'] | where status >= 500 | sort by _time desc | take 20")).toBe(
      "['sample'] | where status >= 500\n| summarize count() by bin_auto(_time)",
    );
    expect(timelineQuery("['s'] | project a | where a == 'x | take 1'")).toBe(
      "['s'] | project a | where a == 'x | take 1'\n| summarize count() by bin_auto(_time)",
    );
  });

  it('ignores pipes in strings, brackets and comments', () => {
    expect(timelineQuery("['a|b'] // x | take 1\n| take 5")).toBe(
      "['a|b'] // x | take 1\n| summarize count() by bin_auto(_time)",
    );
  });
});

import { capabilitiesToApi, datasetCapabilitiesToList, viewCapabilitiesToList } from './capabilities';
import type { DatasetCapabilityEntry } from './resources';

describe('capability list ↔ map', () => {
  it('turns list entries keyed by dataset into the /v2 map, actions sorted and empty lists dropped', () => {
    const api = capabilitiesToApi({
      orgCapabilities: { datasets: ['update', 'read'], rbac: [] },
      datasetCapabilities: [
        { dataset: 'logs', query: ['read'], ingest: ['create'] },
        { dataset: '*', starredQueries: ['read', 'create'], trim: [] },
      ],
      viewCapabilities: [{ view: 'v1', share: ['read'] }],
    });
    expect(api).toEqual({
      orgCapabilities: { datasets: ['read', 'update'] },
      datasetCapabilities: {
        '*': { starredQueries: ['create', 'read'] },
        logs: { ingest: ['create'], query: ['read'] },
      },
      viewCapabilities: { v1: { share: ['read'] } },
    });
  });

  it('round-trips list → map → list to the normalised list', () => {
    const list: DatasetCapabilityEntry[] = [
      { dataset: 'traces', virtualFields: ['update', 'create'] },
      { dataset: 'logs', ingest: ['create'], data: ['delete'] },
    ];
    const back = datasetCapabilitiesToList(
      capabilitiesToApi({ datasetCapabilities: list }).datasetCapabilities,
    );
    expect(back).toEqual([
      { dataset: 'logs', data: ['delete'], ingest: ['create'] },
      { dataset: 'traces', virtualFields: ['create', 'update'] },
    ]);
    expect(capabilitiesToApi({ datasetCapabilities: back })).toEqual(
      capabilitiesToApi({ datasetCapabilities: list }),
    );
  });

  it('reads the API map with null action lists (as Go clients send) as absent', () => {
    expect(
      datasetCapabilitiesToList({ logs: { ingest: null, query: ['read'] }, x: { ingest: null } }),
    ).toEqual([{ dataset: 'logs', query: ['read'] }]);
    expect(viewCapabilitiesToList({})).toEqual([]);
  });
});

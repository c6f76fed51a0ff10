// expect: the rows whose key is one of the sampled keys (source: https://learn.microsoft.com/kusto/query/sample-operator "Generate a sample of keys"); checked by shape: sampling every key keeps every row
let T = datatable(EpisodeId: long, x: long) [1, 10, 1, 11, 2, 12, 3, 13];
let sampleEpisodes = T | sample-distinct 10 of EpisodeId;
T
| where EpisodeId in (sampleEpisodes)
| count

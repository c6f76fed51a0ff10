// expect: previous_session_type: null (empty), Keynote, Expo Session, Breakout, Expo Session; next_session_type of the first four rows: Expo Session, Breakout, Expo Session, Expo Session (the page's first rows of ConferenceSessions, transcribed into a datatable: the table itself is not available) (source: https://learn.microsoft.com/kusto/query/prev-function, https://learn.microsoft.com/kusto/query/next-function)
datatable (session_title: string, session_type: string) [
    "Vision Keynote - Satya Nadella", "Keynote",
    "Azure Data Explorer: Advanced Time Series analysis", "Expo Session",
    "Azure's Data Platform - Powering Modern Applications and Cloud Scale Analytics at Petabyte Scale", "Breakout",
    "How BASF is using Azure Data Services", "Expo Session",
    "Azure Data Explorer: Operationalize your ML models", "Expo Session"
]
| serialize previous_session_type = prev(session_type), next_session_type = next(session_type)
| project session_type, previous_session_type, next_session_type

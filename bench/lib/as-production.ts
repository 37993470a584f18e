/**
 * Imported first by a benchmark that runs the app in its own process: the data layer as production runs it, without
 * the nested-call check's async context (decision 052), whatever NODE_ENV the benchmark needs for plain HTTP.
 */
process.env.DB_NESTED_CALL_CHECK ??= 'off';

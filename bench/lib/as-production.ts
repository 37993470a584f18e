/**
 * Imported first by a benchmark that runs the app in its own process: the data layer as production runs it, without
 * the development checks of every kept statement (decision 052, issue 40), whatever NODE_ENV the benchmark needs for
 * plain HTTP.
 */
process.env.DB_STATEMENT_CHECKS ??= 'off';

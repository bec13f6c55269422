// The list of API methods, without any dependency, so the preload can allow-list them cheaply.
export const apiMethods = [
  'app.info',
  'connection.open',
  'connection.close',
  'analyze.run',
  'explain.run',
  'explain.parse',
  'explain.whatIf',
] as const;
export type ApiMethod = (typeof apiMethods)[number];

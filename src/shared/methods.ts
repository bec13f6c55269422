// The list of API methods, without any dependency, so the preload can allow-list them cheaply.
export const apiMethods = [
  'app.info',
  'connection.open',
  'connection.close',
  'analyze.run',
  'explain.run',
  'explain.parse',
  'explain.whatIf',
  'sqlmode.view',
  'sqlmode.upgrade',
  'workspace.get',
  'workspace.addFromAnalysis',
  'workspace.accept',
  'workspace.dismiss',
  'workspace.saveAs',
  'workspace.open',
  'export.preview',
  'locks.poll',
  'locks.kill',
  'ui.tableSize',
] as const;
export type ApiMethod = (typeof apiMethods)[number];

// The app's name and version; the build injects the version from package.json.
declare const __SARGABLE_VERSION__: string | undefined;

export const APP_NAME = 'Sargable';
export const APP_VERSION: string =
  typeof __SARGABLE_VERSION__ === 'string' ? __SARGABLE_VERSION__ : '0.0.0-dev';

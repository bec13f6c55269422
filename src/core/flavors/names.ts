// Display names of the server flavors.
import type { Flavor } from './capabilities.js';

/** `MySQL`, `MariaDB`, `Percona Server`. */
export function flavorName(flavor: Flavor): string {
  return flavor === 'mariadb' ? 'MariaDB' : flavor === 'percona' ? 'Percona Server' : 'MySQL';
}

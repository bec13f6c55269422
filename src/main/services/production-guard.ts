// The production flag's second confirmation, enforced where writes run (not only in the UI).
/*
 * Design note. A profile marked "production" makes every explicit write (what-if index, kill, the
 * slow-log window, applying DDL) need a second confirmation on top of the dialog that shows the
 * SQL: the user types the profile's name. The renderer sends what was typed as
 * `productionConfirmation`; the handler checks it here before opening the write connection, so a
 * page that skips the dialog (or a script calling the web bridge) gets CONSENT_REQUIRED instead.
 */

import { AdvisorError } from '../../shared/errors.js';
import type { ConnectionTarget } from './connection.js';

/** The name the user must type to confirm writes on a production connection, or null when none is needed. */
export function productionName(target: Pick<ConnectionTarget, 'production'>): string | null {
  return target.production ? target.production.name : null;
}

/** Throw CONSENT_REQUIRED unless the target is not production or `confirmation` is the profile's name. */
export function assertProductionConfirmed(
  target: Pick<ConnectionTarget, 'production'>,
  confirmation: string | undefined,
  action: string,
): void {
  const name = productionName(target);
  if (name === null) return;
  if (confirmation !== undefined && confirmation.trim() === name.trim()) return;
  throw new AdvisorError(
    'CONSENT_REQUIRED',
    `${action} on the production server “${name}” needs a second confirmation: type the profile name “${name}”.`,
    {
      hint: 'The profile is marked as production, so every write asks for its name on top of the SQL confirmation. Nothing was sent to the server.',
    },
  );
}

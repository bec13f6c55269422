// The production flag's second confirmation: type the profile name before a write runs.
import { useId } from 'react';

/** True when nothing extra is needed (not production) or the typed text is the profile name. */
export function productionConfirmed(name: string | null, typed: string): boolean {
  return name === null || typed.trim() === name.trim();
}

/** The request field for a write: what was typed, only on production connections. */
export function productionField(name: string | null, typed: string): { productionConfirmation?: string } {
  return name === null ? {} : { productionConfirmation: typed };
}

/** A red box naming the production server with a field for its name; renders nothing when `name` is null. */
export function ProductionConfirmField({
  name,
  value,
  onChange,
}: {
  name: string | null;
  value: string;
  onChange(value: string): void;
}) {
  const id = useId();
  if (name === null) return null;
  return (
    <div className="production-confirm" data-testid="production-confirm">
      <p>
        <span className="badge badge--production">production</span> This connection is marked as a{' '}
        <strong>production</strong> server. Type its profile name <strong>{name}</strong> to confirm.
      </p>
      <input
        id={id}
        aria-label={`Type ${name} to confirm`}
        spellCheck={false}
        autoComplete="off"
        value={value}
        placeholder={name}
        onChange={(event) => onChange(event.target.value)}
        data-testid="production-confirm-input"
      />
    </div>
  );
}

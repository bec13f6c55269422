// The drag handle between the editor and the panels; arrow keys resize it too.

const minPanel = 96;
const step = 24;

/** The drag handle between editor and panels. */
export function Splitter({ height, onResize }: { height: number; onResize(height: number): void }) {
  const clamp = (value: number) => Math.max(minPanel, Math.min(window.innerHeight - 220, value));
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize panels"
      aria-valuenow={height}
      aria-valuemin={minPanel}
      tabIndex={0}
      onKeyDown={(event) => {
        if (event.key === 'ArrowUp') onResize(clamp(height + step));
        else if (event.key === 'ArrowDown') onResize(clamp(height - step));
        else return;
        event.preventDefault();
      }}
      onPointerDown={(event) => {
        const handle = event.currentTarget;
        handle.setPointerCapture(event.pointerId);
        const startY = event.clientY;
        const startHeight = height;
        const move = (moveEvent: PointerEvent) => onResize(clamp(startHeight + startY - moveEvent.clientY));
        const up = () => {
          handle.removeEventListener('pointermove', move);
          handle.removeEventListener('pointerup', up);
        };
        handle.addEventListener('pointermove', move);
        handle.addEventListener('pointerup', up);
      }}
    />
  );
}

// The workbench's dialogs (connect, palette, About, placeholders, paste EXPLAIN, EXPLAIN ANALYZE, Apply DDL, what-if): the one in state.dialog.
import type { OpenResult } from '../../shared/api.js';
import { fillPlaceholders } from '../placeholders.js';
import { liveSession, productionName } from '../session.js';
import type { useAnalysis } from '../state/analysis.js';
import type { Workbench } from '../state/context.js';
import { recordVerification } from '../state/suggestions.js';
import type { useTabs } from '../state/tabs.js';
import { liveOf, type WorkbenchState } from '../state/workbench.js';
import { ApplyDdlDialog } from './apply-ddl-dialog.js';
import { CommandPalette, type Command } from './command-palette.js';
import { ConnectionDialog } from './connection-dialog.js';
import { AboutDialog, ConfirmDialog, FillPlaceholdersDialog, PasteExplainDialog } from './modal.js';
import { WhatIfDialog } from './what-if-dialog.js';

export function WorkbenchDialogs({
  wb,
  state,
  commands,
  run,
  tabs,
}: {
  wb: Workbench;
  state: WorkbenchState;
  commands: Command[];
  run: ReturnType<typeof useAnalysis>;
  tabs: ReturnType<typeof useTabs>;
}) {
  const { api, store } = wb;
  const { dialog, session } = state;
  const live = liveOf(state);
  const close = () => store.dispatch({ type: 'dialog/closed' });
  const closeAndFocus = () => {
    close();
    wb.editor()?.focus();
  };
  switch (dialog?.kind) {
    case undefined:
      return null;
    case 'connect':
      return (
        <ConnectionDialog
          api={api}
          listen={wb.listen}
          session={session}
          {...(dialog.tab ? { initialTab: dialog.tab } : {})}
          {...(dialog.profileId !== undefined ? { initialProfileId: dialog.profileId } : {})}
          onConnected={(result: OpenResult, options) =>
            void tabs.switchSession(liveSession(result, options.allowWhatIf, options.profile))
          }
          onOffline={(offline) => void tabs.switchSession(offline)}
          onClose={closeAndFocus}
        />
      );
    case 'palette':
      return <CommandPalette commands={commands} onClose={closeAndFocus} />;
    case 'about':
      return <AboutDialog info={state.info.info} error={state.info.error} onClose={close} />;
    case 'placeholders':
      return (
        <FillPlaceholdersDialog
          sql={dialog.sql}
          offsets={dialog.offsets}
          onClose={close}
          onFill={(values) =>
            run.fillAndExplain(dialog, fillPlaceholders(dialog.sql, dialog.offsets, values))
          }
        />
      );
    case 'paste':
      return (
        <PasteExplainDialog
          onClose={close}
          onParse={async (text, pastedFlavor) => {
            const failure = await run.showPlanReport(text, pastedFlavor, null);
            if (!failure) close();
            return failure;
          }}
        />
      );
    case 'analyze-confirm':
      return (
        <ConfirmDialog
          testId="analyze-confirm"
          title="Run EXPLAIN ANALYZE?"
          message={
            <>
              <p>
                <strong>EXPLAIN ANALYZE executes the query</strong> on {live?.label ?? 'the server'} to
                measure it: it reads every row the plan reads and takes as long as the query does.
              </p>
              <p>
                Sargable runs it in a read-only transaction that is rolled back, with a time limit. Only
                SELECT is allowed.
              </p>
            </>
          }
          sql={dialog.sql}
          confirmLabel="Execute and measure"
          onClose={close}
          onConfirm={() => {
            close();
            void run.explain(true);
          }}
        />
      );
    case 'apply-ddl':
      return live ? (
        <ApplyDdlDialog
          api={api}
          connectionId={live.connectionId}
          statements={dialog.statements}
          where={live.label}
          production={productionName(session)}
          onOutcome={(outcome) => store.dispatch({ type: 'ddl/outcome', key: dialog.key, outcome })}
          onClose={close}
        />
      ) : null;
    case 'what-if':
      return (
        <WhatIfDialog
          api={api}
          target={dialog.target}
          onVerified={(reply) => void recordVerification(wb, dialog.key, dialog.target, reply)}
          onClose={close}
        />
      );
  }
}

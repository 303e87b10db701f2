// The core's message catalog: every sentence the pure core renders for a person (checkpoint findings, quick-fix
// titles, CodeLens and hover texts, the status pill, event meanings, run/window descriptions, the runs tree's
// words), in English and Brazilian Portuguese. One mechanism for the whole core: `msg(locale, key, args)` with
// `{name}` placeholders and `msgN` for counted nouns (`key.one` / `key.other`). English is the default and is
// byte-identical to the strings the tests and the contract pin; `pt-br` follows the vocabulary of Leopold's own
// Portuguese documentation (janela de contexto, checkpoint, fotografia, livro-razão, teto, relançar, retomar).
//
// Never translated, in either language: section names (`In-Flight Item`…), event names, stop reasons, verdict
// strings written to disk, state.json fields, file names — they are contract identifiers and appear verbatim.
// Adding a string: add the key to EN and to PT_BR (the compiler refuses a missing Portuguese key; the unit test
// `messages.test.ts` also checks that both sides use the same placeholders).

import { LIVE_EN, LIVE_PT_BR } from './live/messages';
import { STATUS_EN, STATUS_PT_BR } from './agent/messages';
import { DRIVER_EN, DRIVER_PT_BR } from './driver/messages';

export type Locale = 'en' | 'pt-br';
export const LOCALES: readonly Locale[] = ['en', 'pt-br'];

/** A BCP 47 tag from a client or VS Code (`pt-br`, `pt-BR`, `pt`, `pt_BR`, `en-us`…) → a catalog locale. */
export function toLocale(tag: string | undefined | null): Locale {
  const t = (tag ?? '').trim().toLowerCase().replace(/_/g, '-');
  return t === 'pt' || t.startsWith('pt-') ? 'pt-br' : 'en';
}

/** The locale of a command-line run: LC_ALL, LC_MESSAGES or LANG (`pt_BR.UTF-8` → pt-br), else English. */
export function envLocale(env: NodeJS.ProcessEnv): Locale {
  const tag = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return toLocale(tag.split('.')[0]);
}

const EN = {
  ...LIVE_EN,
  ...STATUS_EN,
  ...DRIVER_EN,
  // --- checkpoint findings (core/checkpoint/rules/*.ts) ---------------------------------------------------------
  'checkpoint.nested': '{count} titles — a nested prior checkpoint; merge, never nest. Delete this second "{title}" line and merge any ' +
    'repeated section into the first one.',
  'checkpoint.nested.fix': 'Drop the nested title line',
  'checkpoint.noTitle': 'no "{title}" title — the compact hook refuses a checkpoint without exactly one title and the Stop hook records ' +
    'checkpoint_written: false. Add "{title}" as the first line.',
  'checkpoint.noTitle.fix': 'Insert "{title}" as the first line',
  'checkpoint.titleNotFirst': 'the title is not at the start of the first line — the Stop hook reads only the first line and records ' +
    'checkpoint_written: false. Move "{title}" to the top, unindented.',
  'checkpoint.titleNotFirst.fix': 'Move the title to the first line',
  'checkpoint.textBefore': 'text before the first section is dropped when Leopold parses the checkpoint — move it into the section it ' +
    'belongs to, or delete it.',
  'checkpoint.brief': '"## {name}" — brief state (Mission/Charter/Guardrails/Plan) never lives in the checkpoint: the next window ' +
    ('re-reads MISSION.md, CHARTER.md, GUARDRAILS.md and PLAN.md itself. Move this text into the brief, or quote the heading ("> ## …") ' +
      'to keep it as body text.'),
  'checkpoint.quote.fix': 'Quote "## {name}" as body text',
  'checkpoint.rename.fix': 'Rename to "## {name}"',
  'checkpoint.unknown.near': 'unknown section "## {name}" — the contract is: {list}. Rename it to "## {near}", or quote it ("> ## …") to ' +
    'keep it as body text.',
  'checkpoint.unknown.far': 'unknown section "## {name}" — the contract is: {list}. Rename it to one of those, or quote it ("> ## …") to ' +
    'keep it as body text.',
  'checkpoint.duplicate.ledger': '"## {name}" twice — a nested prior checkpoint; merge, never nest. Merge this section into the first ' +
    '"## {name}" (line {line}); as a ledger it keeps every line, identical ones once.',
  'checkpoint.duplicate.snapshot': '"## {name}" twice — a nested prior checkpoint; merge, never nest. Merge this section into the first ' +
    ('"## {name}" (line {line}); as a snapshot the later view replaces the earlier one — the merge keeps the later view first and the ' +
      'earlier view below it, marked, for you to trim.'),
  'checkpoint.duplicate.ledger.fix': 'Merge into the first "## {name}" (each line once)',
  'checkpoint.duplicate.ledger.repeats.fix': 'Merge into the first "## {name}", keeping repeated lines',
  'checkpoint.duplicate.snapshot.fix': 'Merge into the first "## {name}": this later view first, the earlier view kept below it',
  'checkpoint.duplicate.snapshot.same.fix': 'Remove this repeated "## {name}" (the same view as the first)',
  'checkpoint.duplicate.snapshot.later.fix.one': 'Keep only this later view of "## {name}" (drops {count} line)',
  'checkpoint.duplicate.snapshot.later.fix.other': 'Keep only this later view of "## {name}" (drops {count} lines)',
  'checkpoint.duplicate.earlierView': '(earlier view of "## {name}", kept by the merge — delete what no longer holds)',
  'checkpoint.crlf.one': 'CRLF line ending ({count} line) — Leopold\'s compaction hook and leopold doctor read LF only: every PreCompact ' +
    'refuses this checkpoint (checkpoint_unmergeable) and the doctor reports it MALFORMED. Convert the line endings to LF.',
  'checkpoint.crlf.other': 'CRLF line endings ({count} lines) — Leopold\'s compaction hook and leopold doctor read LF only: every ' +
    'PreCompact refuses this checkpoint (checkpoint_unmergeable) and the doctor reports it MALFORMED. Convert the line endings to LF.',
  'checkpoint.crlf.fix': 'Convert line endings to LF',
  'checkpoint.analysisSkipped': 'not analysed section by section: at {bytes} bytes the document is past {limit} bytes (four times its ' +
    'cap), so only its size is checked. Consolidate it under the cap; the sections are checked again then.',
  'checkpoint.cli.unreadable': 'cannot read the checkpoint: {reason}',
  'checkpoint.cli.noFile': 'no such file',
  'checkpoint.cli.notRegular': 'not a regular file',
  'checkpoint.cli.badFormat': '--format must be text or json, not "{format}"',
  'checkpoint.cli.badOption': 'unknown option {option} (usage: --check [--format text|json] [FILE…])',
  'checkpoint.missing': 'missing section(s): {list} — the contract has exactly seven sections; insert each missing heading at its ' +
    'contract position (an empty section is fine).',
  'checkpoint.missing.fix.rename': 'rename "## {from}" to "## {to}"',
  'checkpoint.missing.fix.insertOne': 'insert "## {name}"',
  'checkpoint.missing.fix.insertMany': 'insert the {count} missing sections',
  'checkpoint.order': 'sections are out of order: found {found} where {expected} belongs — the contract order is {list}. Reorder the ' +
    'sections; their bodies move with them.',
  'checkpoint.order.fix': 'Reorder the sections into the contract order',
  'checkpoint.emptyNextStep': '"## Next Step" is empty — the next window starts from this section; write the single next action it ' +
    'should take.',
  'checkpoint.oversize': 'checkpoint is {bytes} bytes, over the {cap}-byte cap — consolidate it: drop ledger lines that no longer hold ' +
    'and shorten the snapshots ({capDesc}). Leopold refuses an oversized checkpoint and writes nothing.',
  'checkpoint.cap.guardrails': 'the cap is max_checkpoint_kb: {kb} in GUARDRAILS.md',
  'checkpoint.cap.formula': 'the cap is 2% of max_context_mb ({mb}) from state.json, kept between {min} and {max} bytes; ' +
    'max_checkpoint_kb: in GUARDRAILS.md overrides it',
  'checkpoint.format.unparsable.one': 'Cannot format CHECKPOINT.md: it does not parse ({count} problem; first: {first}). Fix the errors ' +
    'first — the quick fixes or "Fix All" do it without losing text.',
  'checkpoint.format.unparsable.other': 'Cannot format CHECKPOINT.md: it does not parse ({count} problems; first: {first}). Fix the ' +
    'errors first — the quick fixes or "Fix All" do it without losing text.',
  'checkpoint.format.textBefore': 'Cannot format CHECKPOINT.md: the text before the first section would be dropped by the canonical ' +
    'form. Move it into a section first.',
  'checkpoint.verdict.errors.one': '✗ {count} problem — the next window will not resume from this',
  'checkpoint.verdict.errors.other': '✗ {count} problems — the next window will not resume from this',
  'checkpoint.verdict.valid': '✓ valid checkpoint · {sections}/{total} sections · {kb} KB of {cap}{warnings}',
  'checkpoint.verdict.warnings.one': ' · {count} warning',
  'checkpoint.verdict.warnings.other': ' · {count} warnings',
  'checkpoint.lens.snapshot': 'snapshot — replaced by the next window',
  'checkpoint.lens.ledger.one': 'ledger — {count} line carried forward',
  'checkpoint.lens.ledger.other': 'ledger — {count} lines carried forward',
  'checkpoint.kind.snapshot': 'snapshot',
  'checkpoint.kind.ledger': 'ledger',
  'checkpoint.kindHelp.snapshot': 'snapshot — the next window replaces this section wholesale with its own view.',
  'checkpoint.kindHelp.ledger': 'ledger — prior lines that are still true are kept, new lines are appended, and exact duplicate lines ' +
    'collapse.',
  'checkpoint.help.In-Flight Item': 'The plan item this window was working on when it closed — the one the next window picks up. The ' +
    'compaction hook writes the first open PLAN.md item here.',
  'checkpoint.help.Files and Code': 'The files this run touched and what is in them now (new, changed, not created yet). The compaction ' +
    'hook fills it from `git status` (at most 40 paths).',
  'checkpoint.help.Errors and Fixes': 'Errors met during the run and how each was fixed (or that it is still open), so the next window ' +
    'does not rediscover them.',
  'checkpoint.help.Decisions This Run': 'The decisions taken in this run, one line each (the DECISIONS.md headings stamped since the run ' +
    'started) — not the charter, which the next window re-reads itself.',
  'checkpoint.help.Learned Constraints': 'Facts about the project learned the hard way that still hold: what must not be edited, what ' +
    'the CI runs, what breaks. Drop a line once it is no longer true.',
  'checkpoint.help.Current Work': 'Where the work stands right now: what is done in the in-flight item, what is half-done, what is ' +
    'failing.',
  'checkpoint.help.Next Step': 'The single next action for the next window, concrete enough to start on without re-reading the whole ' +
    'transcript.',
  // --- the checkpoint language server (server/features/) ---------------------------------------------------------
  'server.fixAll': 'Fix all checkpoint problems',
  'server.completion.present': ' · already in this checkpoint',
  'server.completion.title': 'the checkpoint title (first line)',
  'server.hover.title': '**{title}** — the title of the one document a new context window inherits from the last one. Then exactly seven ' +
    'sections, in contract order.',
  'server.hover.secondTitle': '**A second title** — a prior checkpoint pasted in. Merge, never nest: drop this line and merge the ' +
    'repeated sections into the first ones.',
  'server.hover.section': '**## {name}** · section {index} of 7',
  'server.hover.duplicate': '**Duplicate** — merge it into the first one.',
  'server.hover.notSection': '**{name}** is not a checkpoint section.',
  'server.hover.notSectionBrief': '**{name}** is not a checkpoint section (brief state lives in the brief files).',
  'server.hover.contract': "The contract's sections, in order: {list}.",
  'server.symbol.duplicate': 'duplicate',
  'server.symbol.notSection': 'not a section',
  // --- the project model's verdicts (core/project.ts) and run status (core/runs.ts) -----------------------------
  'project.checkpoint.missing': 'missing',
  'project.checkpoint.empty': 'empty',
  'project.checkpoint.notRegular': 'not a regular file ({kind}); not read',
  'project.checkpoint.tooLarge': 'too large ({size}); not read',
  'project.checkpoint.size': '{bytes} of {cap}',
  'project.checkpoint.problems.one': '{count} problem ({code}) · {size}',
  'project.checkpoint.problems.other': '{count} problems ({code}) · {size}',
  'project.checkpoint.valid': 'valid · {size}{warnings}',
  'project.checkpoint.warnings.one': ' · {count} warning',
  'project.checkpoint.warnings.other': ' · {count} warnings',
  'run.status.none': 'no run',
  'run.status.active': 'active',
  'run.status.rolled': 'rolled → window {window}',
  'run.status.finished': 'finished · {reason}',
  'run.status.stopped': 'stopped · {reason}',
  'run.status.inactive': 'inactive',
  'run.relaunch.fired': 'relaunch fired',
  'run.relaunch.firedWith': 'relaunch fired ({detail})',
  'run.relaunch.refused': 'relaunch refused: {reason}',
  'run.relaunch.failed': 'relaunch failed: never reactivated',
  'run.relaunch.failedWith': 'relaunch failed ({detail}): never reactivated',
  'run.unknown': 'unknown',
  'run.api.stopped': 'stopped · api_error',
  'run.api.stoppedType': 'stopped · api_error ({type})',
  'run.api.retryFired': 'retry {attempt} fired',
  'run.api.retryRefused': 'retry refused: {reason}',
  'run.api.notRetryable': 'not retryable',
  'run.window.relaunched': 'relaunched',
  'run.window.relaunchedWith': 'relaunched ({harness})',
  'run.window.resumed': 'resumed',
  'run.window.waitingNext': 'waiting for the next window',
  'run.window.rolled': 'rolled · {how}',
  'run.window.running': 'running',
  'run.window.notStarted': 'not started · {why}',
  'run.window.waitingRelaunch': 'waiting for relaunch or resume',
  // --- owner ages (core/owner.ts) --------------------------------------------------------------------------------
  'age.s': '{n} s ago',
  'age.min': '{n} min ago',
  'age.h': '{n} h ago',
  'age.d': '{n} d ago',
  // --- Resume's refusals (core/continuity/resume.ts) ---------------------------------------------------------------
  'resume.refused.unreadable_state': 'state.json is not a regular file, or is too large to be a state a hook wrote; it is not read, and ' +
    'nothing is resumed from it',
  'resume.refused.live_owner': 'a live owner holds the run ({who}, last sign of life {age}); it would refuse a second /leopold-run',
  'resume.who.driver': 'the driver',
  'resume.who.session': 'session {short}',
  'resume.refused.max_windows': 'window {window} is past max_windows {max}',
  'resume.refused.kill_switch': '.leopold/STOP is present — a resumed run would stop at once',
  'resume.refused.relaunch_in_grace': 'a relaunch fired moments ago may still be starting the run; try again in {secs} s if it has not ' +
    'reactivated',
  'resume.refused.already_resumed': 'this stop was resumed already (at {at}, by this or another window); try again in {secs} s if its ' +
    'agent has not reactivated the run',
  'resume.refused.already_resumed.running': 'this stop was resumed already (at {at}, by this or another window) and its agent (pid ' +
    '{pid}) is still running',
  // --- what Stop now refuses to signal, and why (core/continuity/proc.ts) ------------------------------------------
  'proc.refused.notRunning': 'the process is not running',
  'proc.refused.noExe': 'its executable cannot be read (/proc/<pid>/exe), so what it runs cannot be verified',
  'proc.refused.notHarness': 'the process is not Claude Code or Codex (it runs {exe})',
  'proc.refused.noCwd': 'its working directory cannot be read',
  'proc.refused.otherCwd': 'it runs in {cwd}, not in this project',
  'proc.refused.noClaim': 'state.json records no claim time (owner.claimed_at, started_at), so a reused pid cannot be ruled out',
  'proc.refused.claimInFuture': 'the run\'s claim time lies {secs} s in the future, so it cannot date the process',
  'proc.refused.startedAfterClaim': 'the process started after the run was claimed: the pid was reused by another process',
  'proc.refused.self': 'it is this editor\'s own process',
  'proc.refused.ancestor': 'it is an ancestor of this editor (pid {pid} started the editor or the process that did)',
  'proc.refused.otherStart': 'the pid now belongs to another process (a different start time)',
  'proc.refused.noStart': 'its start time was not recorded, so a reused pid cannot be ruled out',
  // --- the status pill (core/continuity/pill.ts) -----------------------------------------------------------------
  'pill.noRun': 'no active run',
  'pill.noRun.why': 'No run has been activated here (state.json is missing or empty).',
  'pill.stateInvalid': 'state invalid',
  'pill.stateInvalid.why': 'state.json is not valid JSON; nothing is relaunched and the file is left as it is.',
  'pill.stateSchema.why': '{problem}. The loop waits and writes nothing until the file is fixed.',
  'pill.stateUnreadable': 'state unreadable',
  'pill.stateUnreadable.why': 'state.json is not a regular file, or is too large to be a state a hook wrote; it is not read, nothing is ' +
    'relaunched and the file is left as it is.',
  'pill.active': 'run active · window {window}/{max}',
  'pill.active.why': 'The run is live.',
  'pill.killSwitch': 'stopped · kill_switch',
  'pill.killSwitch.why': '.leopold/STOP is present: nothing is relaunched until it is removed (the relaunch decision is then made again).',
  'pill.stoppedReason': 'stopped · {reason}',
  'pill.stopped': 'stopped',
  'pill.stoppedReason.why': 'The run stopped ({reason}).',
  'pill.stopped.why': 'The run is stopped.',
  'pill.relaunching': ' → relaunching',
  'pill.relaunched.why': 'Relaunched headless ({harness}); waiting for the new session to reactivate the run.',
  'pill.retryIn': ' (retry in {secs}s)',
  'pill.retryIn.why': 'A retryable API error stopped the run; attempt {attempt} of 5 is due in {secs}s.',
  'pill.manual': ' · continuity manual',
  'pill.manual.why': 'GUARDRAILS.md says `continuity: manual`: resume by hand.',
  'pill.relaunchedRecorded.why': 'Relaunched headless ({harness}); waiting up to 120 s for the new session to reactivate the run.',
  'pill.relaunchFailed': ' · relaunch failed',
  'pill.relaunchFailed.why': 'The relaunched window did not reactivate the run (its agent exited first, or 120 s passed): the seat is ' +
    'empty. Resume by hand.',
  'pill.notRetried': ' · not retried ({reason})',
  'pill.notRelaunched': ' · not relaunched ({reason})',
  'pill.refused.why': 'The continuity loop refused ({reason}){detail}. Resume by hand when it is safe.',
  'pill.error.why': 'The continuity loop could not decide.',
  'pill.mode.off': ' · auto-relaunch off',
  'pill.mode.deferred': ' · leopold watch decides',
  'pill.mode.untrusted': ' · untrusted',
  // --- event meanings (core/events.ts), keyed by the contract's event names --------------------------------------
  'event.max_windows': 'the run reached max_windows and stopped',
  'event.no_progress_across_windows': 'two windows in a row closed no item: the run stopped',
  'event.stop_failure': 'the turn failed with an API error: the run stopped (api_error)',
  'event.checkpoint_oversize': 'the compaction checkpoint was over the cap: nothing was written',
  'event.checkpoint_unmergeable': 'the checkpoint could not be merged: nothing was written',
  'event.window_relaunch_failed': 'the relaunched window never reactivated the run within 120 s',
  'event.api_error_relaunch_refused': 'the api_error retry ladder refused: the stop is final',
  'event.state_invalid': 'state.json was malformed and was reset by the Stop hook',
  'event.guard_block': 'the git lock denied an irreversible command',
  'event.window_roll': 'the context window filled up: the run rolled to a fresh window',
  'event.checkpoint_grace': 'the window hit its budget with no checkpoint: one grace turn given',
  'event.window_relaunch': 'the next window was relaunched headless',
  'event.api_error_relaunch': 'a retry after an API error was relaunched',
  'event.owner_takeover': 'another session took over the run',
  'event.owner_unknown': 'a stop could not be attributed to the run owner',
  'event.lock_timeout': 'a hook could not take the state lock',
  'event.checkpoint_instruction': 'the window is past 80%: the model was told to write its checkpoint',
  'event.window_relaunch_refused': 'the next window was not relaunched (see the reason; spawn failures land here too)',
  'event.foreign_stop': 'a session that does not own the run stopped: nothing was counted',
  'event.compact_resumed': 'the session resumed after a compaction',
  'event.turn_start': 'a counted turn started',
  'event.compact_checkpoint': 'a checkpoint was written before compaction',
  'event.stop': 'the run stopped; reason names the stop condition',
  'event.item_start': 'the driver picked up a plan item',
  'event.item_done': 'a plan item was closed and verified',
  'event.item_incomplete': 'an item was left open after a failed attempt',
  'event.cost': 'the spend for the turn and the running total (driver)',
  'event.review': 'a review-panel round finished, clean or blocking',
  'event.hypothesis': 'a root-cause hypothesis survived, or none did',
  'event.learn': 'the charter learner proposed amendments',
  'event.merge_conflict': 'a parallel worker\'s worktree would not merge: it was kept',
  'event.subagent_spawn': 'a subagent or a fork was launched',
  'event.persona': 'a persona spoke for a fork, or a human node was synthesized',
  'event.awaiting_human': 'the run needs a person for an item it may not decide alone',
  'event.failure_rescue': 'one last attempt with a different approach before stopping',
  'event.failure_rescue_declined': 'no different approach was found: the run stops',
  'event.decision_asked': 'a provider was asked typed questions',
  'event.decision_answered': 'a typed answer came back, with its band (act, escalate or floor)',
  'event.decision_failed': 'no usable answer: the deterministic path was used',
  'event.decision_retry': 'the provider was congested (429/529): backing off',
  'event.decision_timeout': 'the provider did not answer in time: the lexical verdict stood',
  'event.decision_denied': 'the semantic axis turned a lexical allow into a deny',
  'event.permission_decided': 'a permission prompt was answered for the run',
  'event.persona_guard_block': 'the persona allowlist denied a navigation off the flow',
  'event.api_error_observed': 'a driver worker\'s turn hit an API error: the run was not stopped',
  'event.subagent_started': 'a subagent was spawned: it counts against max_subagents',
  'event.subagent_stopped': 'a subagent finished: transcript_bytes is its cost',
  'event.subagent_cap_denied': 'the subagent ceiling denied a spawn',
  'event.verify_recorded': 'a GUARDRAILS verification command ran: outcome says what it proves',
  'event.done_denied': 'a claim of done was refused: nothing verified the work since its last edit',
  'event.external_write': 'PLAN.md or DECISIONS.md changed and the run did not write it: nothing was blocked',
  'event.config_change_blocked': 'a mid-run settings change was refused: the file on disk kept the edit',
  'event.detail.iter': 'iter {n}',
  'event.detail.open': 'open {n}',
  'event.detail.stuck': 'stuck {n}',
  'event.detail.reason': 'reason: {reason}',
  'event.detail.needsYou': 'item {item} needs you · {text}',
  'event.detail.effort': 'effort {effort}',
  'event.detail.left': '{n} left',
  'event.detail.fails': 'fails {n}',
  'event.detail.staleOwner': 'stale owner',
  // --- the runs tree's nodes (extension/runs/runsTreeNodes.ts, vscode-free) -------------------------------------------
  'tree.items.one': '{count} item',
  'tree.items.other': '{count} items',
  'tree.compactions.one': '{count} compaction',
  'tree.compactions.other': '{count} compactions',
  'tree.badLines.one': '{count} bad line',
  'tree.badLines.other': '{count} bad lines',
  'tree.window.checkpoint': 'checkpoint ✓',
  'tree.window.noCheckpoint': 'no checkpoint',
  'tree.window.label': 'Window {n}',
  'tree.event.unregistered': 'not in the event registry (shown with its fields)',
  'tree.window.gap': 'Windows {from}–{to}',
  'tree.window.gap.desc': 'no record in the journal or state.json',
  'tree.window.gap.tooltip': '{count} windows counted by state.json "windows" with no roll in the journal and no window_progress entry',
  'tree.archive.windows.tooltip': 'Context windows of this archived run, from its archived events.jsonl',
  'tree.window.tooltip.of': 'Window {n} of at most {max}',
  'tree.window.tooltip.items': 'Items closed: {count}',
  'tree.window.tooltip.contextRunning': 'Context: {mb} MB (last turn)',
  'tree.window.tooltip.contextRoll': 'Context: {mb} MB at the roll',
  'tree.window.tooltip.checkpoint': 'Checkpoint written at the roll: {answer}',
  'tree.yes': 'yes',
  'tree.no': 'no',
  'tree.window.tooltip.compactions': 'Compactions survived: {count}',
  'tree.window.tooltip.ended': 'Ended: {detail}',
  'tree.plan.next': 'next',
  'tree.plan.after': 'after {deps}',
  'tree.plan.scenarios': 'Scenarios:',
  'tree.plan.line': 'PLAN.md line {line}',
  'tree.state.empty': 'state.json is empty',
  'tree.state.invalidJson': 'state.json is not valid JSON',
  'tree.state.invalid': 'state.json is invalid',
  'tree.state.notRegular': 'state.json is not a regular file',
  'tree.state.notRegular.desc': '{kind}; not read (a FIFO or a device would block every extension\'s file reads)',
  'tree.state.tooLarge': 'state.json is too large',
  'tree.state.tooLarge.desc': '{size}, over the {limit} a state a hook writes stays under; not read',
  'file.kind.directory': 'a directory',
  'file.kind.fifo': 'a FIFO',
  'file.kind.socket': 'a socket',
  'file.kind.device': 'a device',
  'file.kind.other': 'not a file',
  'tree.state.tooltip': 'The file is shown as it is and never rewritten by the extension.',
  'tree.status': 'Status',
  'tree.status.tooltip': 'Status: {label}',
  'tree.status.noRun': 'no run yet (no state.json)',
  'tree.iteration': 'Iteration',
  'tree.iteration.tooltip': 'Counted turns, run-wide: {n} of at most {max}',
  'tree.owner': 'Owner',
  'tree.owner.unknown': 'unknown',
  'tree.owner.noLife': 'no sign of life',
  'tree.owner.alive': 'alive ({age})',
  'tree.owner.stale': 'stale ({age})',
  'tree.owner.none': '(none)',
  'tree.owner.tooltip': 'Owner session: {session}\nEngine: {engine}\nHarness: {harness}',
  'tree.owner.signal': ' — newest signal: {signal}',
  'tree.owner.aliveMeans': 'Alive means a sign of life within 10 minutes.',
  'tree.owner.pid': 'pid {pid}',
  'tree.owner.openTranscript': 'Click to open the transcript: {path}',
  'tree.relaunch': 'Relaunch',
  'tree.relaunch.running': '{harness} · pid {pid} · running since {time}',
  'tree.relaunch.earlyCode': 'exited with code {code} before it reactivated the run',
  'tree.relaunch.earlySignal': 'ended by {signal} before it reactivated the run',
  'tree.relaunch.exitedCode': 'exited with code {code}',
  'tree.relaunch.exitedSignal': 'ended by {signal}',
  'tree.relaunch.exitedUnknown': 'ended while VS Code was away',
  'tree.relaunch.tooltip': 'Agent started by Leopold for VS Code ({path}) at {time}, pid {pid}\n{argv}\nOutput: {log} (click to open)',
  'tree.relaunch.lastOutput': 'Last output:',
  'tree.windows': 'Windows',
  'tree.windows.tooltip': 'Context windows of this run (max_windows {max})',
  'tree.plan': 'Plan',
  'tree.plan.done': '{done} / {total} done',
  'tree.plan.none': 'no PLAN.md',
  'tree.plan.tooltip.next': 'Next: {index}. {text}',
  'tree.plan.tooltip.allDone': 'Every item is done',
  'tree.plan.tooltip.missing': 'PLAN.md does not exist',
  'tree.events': 'Recent events',
  'tree.events.skipped': ' · {lines} skipped',
  'tree.events.none': 'no events.jsonl',
  'tree.events.notRegular': 'events.jsonl is not a regular file ({kind}); not read',
  'tree.events.tooltip': 'The newest journal events (events.jsonl), newest first; malformed lines are skipped',
  'tree.event.noTs': '(no ts)',
  'tree.files': 'Files',
  'tree.file.missing': 'missing',
  'tree.file.notRegular': 'not a regular file ({kind}); not read',
  'tree.file.tooLarge': 'too large ({size}); not read',
  'tree.file.checkpointTooltip': 'CHECKPOINT.md: {verdict}\n(validated against the checkpoint contract; open it for the details)',
  'tree.run.plan': ' · plan {done}/{total}',
  'tree.run.desc': '{status} · iteration {iteration}/{max} · window {window}/{windows}{plan}',
  'tree.run.noRun': 'no run yet{plan}',
  'tree.run.unreadable': 'state.json unreadable{plan}',
  'tree.project.desc': '{status} · window {window}/{windows}',
  'tree.project.noRun': 'no run yet',
  'tree.project.invalid': 'state.json invalid',
  'tree.currentRun': 'Current run',
  'tree.archives': 'Archived runs',
  'tree.archives.tooltip': 'runs/: archived runs, newest first',
  'tree.archives.more.one': '{count} more…',
  'tree.archives.more.other': '{count} more…',
  'tree.archives.more.tooltip': 'Click to show the next {page} archived runs',
  'tree.archive.notStamped': 'not stamped',
  // --- the run timeline (core/timeline.ts; drawn by the webview as given) --------------------------------------------
  'timeline.title': 'Run timeline — {project}',
  'timeline.subtitle': '{status} · window {window}/{max}{plan} · updated {at}',
  'timeline.plan': ' · plan {done}/{total}',
  'timeline.empty': 'No run yet: .leopold/state.json does not exist or cannot be read.',
  'timeline.noMarks': 'no rolls, compactions or relaunches journaled',
  'timeline.window.from': 'from {time}',
  'timeline.window.to': 'to {time}',
  'timeline.verdict': 'Verdict: {verdict}',
  'timeline.verdict.tooltip': '{verdict} — {who}{mode}',
  'timeline.apiError': 'API error: {type}{hint}',
  'timeline.apiError.hint': ' — hint: {hint}',
  'timeline.verdict.supervisor': 'the supervisor',
  'timeline.verdict.observed': 'read from the files (no supervisor running)',
  'timeline.mark.roll.one': 'window {window} rolled · {count} item closed',
  'timeline.mark.roll.other': 'window {window} rolled · {count} items closed',
  'timeline.mark.compaction': 'compaction ({trigger})',
  'timeline.mark.compactionBytes': 'compaction ({trigger}) · {bytes} bytes',
  'timeline.mark.relaunch': 'relaunched headless ({harness})',
  'timeline.mark.relaunchRefused': 'relaunch refused: {reason}',
  'timeline.mark.relaunchFailed': 'relaunch failed: never reactivated',
  'timeline.mark.apiError': 'API error: {type}{retryable}',
  'timeline.mark.retryable': ' (retryable)',
  'timeline.mark.notRetryable': ' (not retryable)',
  'timeline.mark.apiRetry': 'API retry {attempt} relaunched ({harness})',
  'timeline.mark.apiRefused': 'API retry refused: {reason}',
  'timeline.mark.grace': 'checkpoint grace turn',
  'timeline.mark.maxWindows': 'stopped: max_windows',
  'timeline.mark.noProgress': 'stopped: no_progress_across_windows',
  'timeline.legend.roll': 'window roll',
  'timeline.legend.compaction': 'compaction',
  'timeline.legend.relaunch': 'relaunch',
  'timeline.legend.relaunchRefused': 'relaunch refused / failed',
  'timeline.legend.apiError': 'API error',
  'timeline.legend.apiRetry': 'API retry',
  // --- leopold doctor's project block (core/doctor.ts); `[ok]`/`[warn]`/`[FAIL]` tags and `leopold doctor` stay ----
  'doctor.extension': '(Leopold for VS Code) ',
  'doctor.cp.oversize': 'checkpoint is {bytes} bytes, over the {cap}-byte cap — consolidate it (merge, drop stale facts)',
  'doctor.cp.brief': 'checkpoint has a "## {name}" section — brief state (Mission/Charter/Guardrails/Plan) never lives in the ' +
    'checkpoint; the next window re-reads the brief itself',
  'doctor.cp.unknown': 'checkpoint has an unknown section "## {name}" — the contract is: {list}',
  'doctor.cp.duplicate': 'checkpoint has "## {name}" twice — a nested prior checkpoint; merge, never nest',
  'doctor.cp.nested': 'checkpoint contains {count} "{title}" titles — a nested prior checkpoint; merge, never nest',
  'doctor.cp.missing': 'checkpoint is missing section(s): {list}',
  'doctor.cp.order': 'checkpoint sections are out of order: found "{found}" where "{expected}" belongs — the order is fixed',
  'doctor.header': 'leopold doctor',
  'doctor.emptyFile': 'the file is empty',
  'doctor.blockTitle': 'project continuity ({leoDir})',
  'doctor.absent': 'no Leopold run in {leoDir} (neither MISSION.md nor state.json exists)',
  'doctor.driver': 'driver',
  'doctor.noLifeFor': 'no sign of life for {age}s',
  'doctor.andMore': ' (and {more} more)',
  'doctor.plusMore': ' (+{more} more)',
  'doctor.state-invalid-json': 'state.json is not valid JSON ({message}) — the Stop hook replaces it with ' +
    '{"active":false,"stopped_reason":"state_invalid"}',
  'doctor.state-invalid': "state.json field {path}: {message}{more} — Leopold's writers expect another type here",
  'doctor.state-not-regular': 'state.json is not a regular file ({kind}) — not read; a FIFO would block every reader, the hooks included',
  'doctor.state-too-large': 'state.json is {mb} MB, over the {limit} MB a hook-written state stays far below — not parsed',
  'doctor.kill-switch': 'kill switch present (.leopold/STOP) — nothing relaunches this run until it is removed',
  'doctor.owner-alive': 'run owner: session {short} {desc} — alive, last seen {age}s ago',
  'doctor.owner-stale': 'run owner: session {short} {desc} — {lifeless}; /leopold-run in a new session takes it over',
  'doctor.owner-driver-alive': 'run owner: leopold run {desc} — alive, last seen {age}s ago',
  'doctor.owner-driver-stale': 'run owner: leopold run {desc} — {lifeless}; the next leopold run reaps it, or /leopold-run takes over',
  'doctor.owner-none': 'run active with NO session owner — every session that stops in this checkout is continued and counted; ' +
    're-activate with /leopold-run to bind the run to one session',
  'doctor.foreign-stops': '{count} stop(s) from other sessions were turned away (foreign_stop) — a second window is open in this ' +
    'checkout; it is not counted, but it shares the working tree',
  'doctor.state-tracked': 'state.json is TRACKED by git — every worktree and clone inherits this run\'s state (and its git lock); add ' +
    '.leopold/ to .gitignore and untrack it',
  'doctor.state-tracking-no-git': 'not a git repository — whether .leopold/state.json is tracked was not checked',
  'doctor.state-tracking-not-checked': 'whether .leopold/state.json is tracked by git was not checked (Restricted Mode: git is not run ' +
    'in an untrusted workspace)',
  'doctor.checkpoint-ok': 'checkpoint OK ({bytes} bytes) — the next window continues from it',
  'doctor.checkpoint-absent': 'no checkpoint (normal — a window roll writes .leopold/CHECKPOINT.md before the window closes)',
  'doctor.checkpoint-malformed': 'checkpoint MALFORMED: {error}{more} — a reseed cannot trust .leopold/CHECKPOINT.md; fix it or archive it',
  'doctor.continuity-auto': 'continuity auto — leopold watch relaunches a rolled window headless',
  'doctor.continuity-manual': 'continuity manual — relaunch is OFF; resume a rolled window yourself with /leopold-run',
  'doctor.continuity-unknown': "continuity '{value}' is not a setting (auto|manual) — treated as auto; fix the line in " +
    ".leopold/GUARDRAILS.md",
  'doctor.windows': 'windows {n}/{m}',
  'doctor.windows-ceiling': 'windows {n}/{m} — the ceiling is reached; the next roll stops the run (raise max_windows in ' +
    '.leopold/GUARDRAILS.md if it genuinely needs more)',
  'doctor.windows-stopped': 'windows {n}/{m} — the ceiling was reached and the run has stopped ({reason}); raise max_windows in ' +
    '.leopold/GUARDRAILS.md and resume with /leopold-run if it genuinely needs more',
  'doctor.progress': 'last window closed {k} plan item(s)',
  // The extension's first-run checks (Leopold for VS Code; leopold doctor has no such block).
  'doctor.firstRun.title': 'what a first run needs (Leopold for VS Code)',
  'doctor.agent-found': '{harness} found: {path} — {version}',
  'doctor.agent-found-untrusted': '{harness} found: {path} — its version is not asked in Restricted Mode (that would start it)',
  'doctor.agent-version-failed': '{harness} found: {path}, but "{harness} --version" failed ({reason}) — a relaunch would start this file',
  'doctor.agent-missing': '{harness} not found: {reason}',
  'doctor.agent-unused': '{harness} not found — no run here uses it (it is needed only to relaunch or resume a {harness} run)',
  'doctor.agents-missing': 'neither claude nor codex can be started — relaunches and Resume need one: set leopold.claude.path or ' +
    'leopold.codex.path',
  'doctor.watch-serving': '{project}: leopold watch (pid {pid}, port {port}) serves this project — the extension\'s relaunch loop ' +
    'defers to it',
  'doctor.watch-none': '{project}: no leopold watch serves this project — the Leopold status bar item runs the relaunch loop while VS ' +
    'Code is open',
  'doctor.watch-none-untrusted': '{project}: no leopold watch serves this project, and in Restricted Mode nothing relaunches it',
  'doctor.watch-unknown': '{project}: whether a leopold watch serves this project was not checked (processes cannot be listed on this ' +
    'system)',
  'doctor.noVersion': 'it printed no version',
  'doctor.progress-zero': 'last window closed ZERO plan items — one more zero-item window ends the run (no_progress_across_windows)',
  'doctor.progress-stopped': 'last window closed ZERO plan items — the run has stopped ({reason}): windows in a row closed nothing; ' +
    'resume with /leopold-run once the plan can move',
  'doctor.summary': 'summary: {ok} ok, {warnings} warnings, {problems} problems',
  'doctor.healthy': 'Leopold looks healthy.',
  'doctor.fixFails': 'Fix the [FAIL] items above.',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof EN;

const PT_BR: Record<MessageKey, string> = {
  ...LIVE_PT_BR,
  ...STATUS_PT_BR,
  ...DRIVER_PT_BR,
  'checkpoint.nested': '{count} títulos — um checkpoint anterior aninhado; faça merge, nunca aninhe. Apague esta segunda linha "{title}" ' +
    'e faça merge de qualquer seção repetida na primeira.',
  'checkpoint.nested.fix': 'Remover a linha de título aninhada',
  'checkpoint.noTitle': 'sem o título "{title}" — o compact hook recusa um checkpoint sem exatamente um título e o Stop hook registra ' +
    'checkpoint_written: false. Adicione "{title}" como primeira linha.',
  'checkpoint.noTitle.fix': 'Inserir "{title}" como primeira linha',
  'checkpoint.titleNotFirst': 'o título não está no início da primeira linha — o Stop hook lê só a primeira linha e registra ' +
    'checkpoint_written: false. Mova "{title}" para o topo, sem recuo.',
  'checkpoint.titleNotFirst.fix': 'Mover o título para a primeira linha',
  'checkpoint.textBefore': 'o texto antes da primeira seção é descartado quando o Leopold faz o parse do checkpoint — mova-o para a ' +
    'seção a que ele pertence, ou apague-o.',
  'checkpoint.brief': '"## {name}" — estado do brief (Mission/Charter/Guardrails/Plan) nunca vive no checkpoint: a próxima janela relê ' +
    ('MISSION.md, CHARTER.md, GUARDRAILS.md e PLAN.md sozinha. Mova este texto para o brief, ou cite o heading ("> ## …") para mantê-lo ' +
      'como texto do corpo.'),
  'checkpoint.quote.fix': 'Citar "## {name}" como texto do corpo',
  'checkpoint.rename.fix': 'Renomear para "## {name}"',
  'checkpoint.unknown.near': 'seção desconhecida "## {name}" — o contrato é: {list}. Renomeie para "## {near}", ou cite-a ("> ## …") ' +
    'para mantê-la como texto do corpo.',
  'checkpoint.unknown.far': 'seção desconhecida "## {name}" — o contrato é: {list}. Renomeie para uma dessas, ou cite-a ("> ## …") para ' +
    'mantê-la como texto do corpo.',
  'checkpoint.duplicate.ledger': '"## {name}" duas vezes — um checkpoint anterior aninhado; faça merge, nunca aninhe. Faça merge desta ' +
    'seção na primeira "## {name}" (linha {line}); como livro-razão ela mantém todas as linhas, as idênticas uma vez só.',
  'checkpoint.duplicate.snapshot': '"## {name}" duas vezes — um checkpoint anterior aninhado; faça merge, nunca aninhe. Faça merge desta ' +
    ('seção na primeira "## {name}" (linha {line}); como fotografia a visão posterior substitui a anterior — o merge mantém a visão ' +
      'posterior primeiro e a anterior abaixo dela, marcada, para você enxugar.'),
  'checkpoint.duplicate.ledger.fix': 'Fazer merge na primeira "## {name}" (cada linha uma vez)',
  'checkpoint.duplicate.ledger.repeats.fix': 'Fazer merge na primeira "## {name}", mantendo as linhas repetidas',
  'checkpoint.duplicate.snapshot.fix': 'Fazer merge na primeira "## {name}": esta visão posterior primeiro, a visão anterior mantida ' +
    'abaixo dela',
  'checkpoint.duplicate.snapshot.same.fix': 'Remover esta "## {name}" repetida (a mesma visão da primeira)',
  'checkpoint.duplicate.snapshot.later.fix.one': 'Manter só esta visão posterior de "## {name}" (remove {count} linha)',
  'checkpoint.duplicate.snapshot.later.fix.other': 'Manter só esta visão posterior de "## {name}" (remove {count} linhas)',
  'checkpoint.duplicate.earlierView': '(visão anterior de "## {name}", mantida pelo merge — apague o que não vale mais)',
  'checkpoint.crlf.one': 'fim de linha CRLF ({count} linha) — o compact hook do Leopold e o leopold doctor leem só LF: todo PreCompact ' +
    'recusa este checkpoint (checkpoint_unmergeable) e o doctor o reporta como MALFORMED. Converta os fins de linha para LF.',
  'checkpoint.crlf.other': 'fins de linha CRLF ({count} linhas) — o compact hook do Leopold e o leopold doctor leem só LF: todo ' +
    'PreCompact recusa este checkpoint (checkpoint_unmergeable) e o doctor o reporta como MALFORMED. Converta os fins de linha para LF.',
  'checkpoint.crlf.fix': 'Converter os fins de linha para LF',
  'checkpoint.analysisSkipped': 'não analisado seção por seção: com {bytes} bytes o documento passa de {limit} bytes (quatro vezes o seu ' +
    'teto), então só o tamanho é verificado. Consolide-o abaixo do teto; as seções voltam a ser verificadas então.',
  'checkpoint.cli.unreadable': 'não foi possível ler o checkpoint: {reason}',
  'checkpoint.cli.noFile': 'arquivo inexistente',
  'checkpoint.cli.notRegular': 'não é um arquivo comum',
  'checkpoint.cli.badFormat': '--format deve ser text ou json, não "{format}"',
  'checkpoint.cli.badOption': 'opção desconhecida {option} (uso: --check [--format text|json] [ARQUIVO…])',
  'checkpoint.missing': 'seção(ões) ausente(s): {list} — o contrato tem exatamente sete seções; insira cada heading ausente na sua ' +
    'posição do contrato (uma seção vazia serve).',
  'checkpoint.missing.fix.rename': 'renomear "## {from}" para "## {to}"',
  'checkpoint.missing.fix.insertOne': 'inserir "## {name}"',
  'checkpoint.missing.fix.insertMany': 'inserir as {count} seções ausentes',
  'checkpoint.order': 'as seções estão fora de ordem: {found} está onde deveria estar {expected} — a ordem do contrato é {list}. ' +
    'Reordene as seções; os corpos vão junto.',
  'checkpoint.order.fix': 'Reordenar as seções na ordem do contrato',
  'checkpoint.emptyNextStep': '"## Next Step" está vazia — a próxima janela começa por esta seção; escreva a única próxima ação que ela ' +
    'deve tomar.',
  'checkpoint.oversize': 'o checkpoint tem {bytes} bytes, acima do teto de {cap} bytes — consolide-o: descarte linhas de livro-razão que ' +
    'não valem mais e encurte as fotografias ({capDesc}). O Leopold recusa um checkpoint acima do teto e não escreve nada.',
  'checkpoint.cap.guardrails': 'o teto é max_checkpoint_kb: {kb} no GUARDRAILS.md',
  'checkpoint.cap.formula': 'o teto é 2% de max_context_mb ({mb}) do state.json, mantido entre {min} e {max} bytes; um ' +
    'max_checkpoint_kb: no GUARDRAILS.md sobrepõe a fórmula',
  'checkpoint.format.unparsable.one': 'Não é possível formatar o CHECKPOINT.md: o parse falha ({count} problema; o primeiro: {first}). ' +
    'Corrija os erros antes — as correções rápidas ou "Corrigir Tudo" fazem isso sem perder texto.',
  'checkpoint.format.unparsable.other': 'Não é possível formatar o CHECKPOINT.md: o parse falha ({count} problemas; o primeiro: ' +
    '{first}). Corrija os erros antes — as correções rápidas ou "Corrigir Tudo" fazem isso sem perder texto.',
  'checkpoint.format.textBefore': 'Não é possível formatar o CHECKPOINT.md: o texto antes da primeira seção seria descartado pela forma ' +
    'canônica. Mova-o para uma seção antes.',
  'checkpoint.verdict.errors.one': '✗ {count} problema — a próxima janela não vai retomar a partir disto',
  'checkpoint.verdict.errors.other': '✗ {count} problemas — a próxima janela não vai retomar a partir disto',
  'checkpoint.verdict.valid': '✓ checkpoint válido · {sections}/{total} seções · {kb} KB de {cap}{warnings}',
  'checkpoint.verdict.warnings.one': ' · {count} aviso',
  'checkpoint.verdict.warnings.other': ' · {count} avisos',
  'checkpoint.lens.snapshot': 'fotografia — substituída pela próxima janela',
  'checkpoint.lens.ledger.one': 'livro-razão — {count} linha levada adiante',
  'checkpoint.lens.ledger.other': 'livro-razão — {count} linhas levadas adiante',
  'checkpoint.kind.snapshot': 'fotografia',
  'checkpoint.kind.ledger': 'livro-razão',
  'checkpoint.kindHelp.snapshot': 'fotografia — a próxima janela substitui esta seção por inteiro com a visão dela.',
  'checkpoint.kindHelp.ledger': 'livro-razão — linhas anteriores ainda verdadeiras são mantidas, linhas novas são anexadas, e linhas ' +
    'duplicadas idênticas viram uma só.',
  'checkpoint.help.In-Flight Item': 'O item do plano em que esta janela trabalhava quando fechou — o que a próxima janela retoma. O hook ' +
    'de compactação escreve aqui o primeiro item aberto do PLAN.md.',
  'checkpoint.help.Files and Code': 'Os arquivos que esta run tocou e o que há neles agora (novos, alterados, ainda não criados). O hook ' +
    'de compactação a preenche a partir do `git status` (no máximo 40 caminhos).',
  'checkpoint.help.Errors and Fixes': 'Erros encontrados durante a run e como cada um foi corrigido (ou que ainda está aberto), para que ' +
    'a próxima janela não os redescubra.',
  'checkpoint.help.Decisions This Run': 'As decisões tomadas nesta run, uma linha cada (os headings do DECISIONS.md carimbados desde que ' +
    'a run começou) — não o charter, que a próxima janela relê sozinha.',
  'checkpoint.help.Learned Constraints': 'Fatos sobre o projeto aprendidos do jeito difícil que ainda valem: o que não pode ser editado, ' +
    'o que o CI roda, o que quebra. Descarte uma linha quando ela deixar de ser verdade.',
  'checkpoint.help.Current Work': 'Onde o trabalho está agora: o que está feito no item em andamento, o que está pela metade, o que está ' +
    'falhando.',
  'checkpoint.help.Next Step': 'A única próxima ação para a próxima janela, concreta o bastante para começar sem reler o transcript ' +
    'inteiro.',
  'server.fixAll': 'Corrigir todos os problemas do checkpoint',
  'server.completion.present': ' · já está neste checkpoint',
  'server.completion.title': 'o título do checkpoint (primeira linha)',
  'server.hover.title': '**{title}** — o título do único documento que uma nova janela de contexto herda da anterior. Depois, exatamente ' +
    'sete seções, na ordem do contrato.',
  'server.hover.secondTitle': '**Um segundo título** — um checkpoint anterior colado aqui. Merge, nunca aninhar: apague esta linha e ' +
    'faça merge das seções repetidas nas primeiras.',
  'server.hover.section': '**## {name}** · seção {index} de 7',
  'server.hover.duplicate': '**Duplicada** — faça merge dela na primeira.',
  'server.hover.notSection': '**{name}** não é uma seção do checkpoint.',
  'server.hover.notSectionBrief': '**{name}** não é uma seção do checkpoint (o estado do brief vive nos arquivos do brief).',
  'server.hover.contract': 'As seções do contrato, em ordem: {list}.',
  'server.symbol.duplicate': 'duplicada',
  'server.symbol.notSection': 'não é uma seção',
  'project.checkpoint.missing': 'ausente',
  'project.checkpoint.empty': 'vazio',
  'project.checkpoint.notRegular': 'não é um arquivo regular ({kind}); não lido',
  'project.checkpoint.tooLarge': 'grande demais ({size}); não lido',
  'project.checkpoint.size': '{bytes} de {cap}',
  'project.checkpoint.problems.one': '{count} problema ({code}) · {size}',
  'project.checkpoint.problems.other': '{count} problemas ({code}) · {size}',
  'project.checkpoint.valid': 'válido · {size}{warnings}',
  'project.checkpoint.warnings.one': ' · {count} aviso',
  'project.checkpoint.warnings.other': ' · {count} avisos',
  'run.status.none': 'sem run',
  'run.status.active': 'ativa',
  'run.status.rolled': 'rolou → janela {window}',
  'run.status.finished': 'concluída · {reason}',
  'run.status.stopped': 'parada · {reason}',
  'run.status.inactive': 'inativa',
  'run.relaunch.fired': 'relançamento disparado',
  'run.relaunch.firedWith': 'relançamento disparado ({detail})',
  'run.relaunch.refused': 'relançamento recusado: {reason}',
  'run.relaunch.failed': 'relançamento falhou: nunca reativou',
  'run.relaunch.failedWith': 'relançamento falhou ({detail}): nunca reativou',
  'run.unknown': 'desconhecido',
  'run.api.stopped': 'parada · api_error',
  'run.api.stoppedType': 'parada · api_error ({type})',
  'run.api.retryFired': 'tentativa {attempt} disparada',
  'run.api.retryRefused': 'nova tentativa recusada: {reason}',
  'run.api.notRetryable': 'não retryable',
  'run.window.relaunched': 'relançada',
  'run.window.relaunchedWith': 'relançada ({harness})',
  'run.window.resumed': 'retomada',
  'run.window.waitingNext': 'esperando a próxima janela',
  'run.window.rolled': 'rolou · {how}',
  'run.window.running': 'em andamento',
  'run.window.notStarted': 'não iniciada · {why}',
  'run.window.waitingRelaunch': 'esperando relançamento ou retomada',
  'age.s': 'há {n} s',
  'age.min': 'há {n} min',
  'age.h': 'há {n} h',
  'age.d': 'há {n} d',
  // --- as recusas do Retomar (core/continuity/resume.ts) -------------------------------------------------------------
  'resume.refused.unreadable_state': 'o state.json não é um arquivo regular, ou é grande demais para ser um estado escrito por um hook; ' +
    'ele não é lido, e nada é retomado a partir dele',
  'resume.refused.live_owner': 'um dono vivo segura a run ({who}, último sinal de vida {age}); ele recusaria um segundo /leopold-run',
  'resume.who.driver': 'o driver',
  'resume.who.session': 'sessão {short}',
  'resume.refused.max_windows': 'a janela {window} passou de max_windows {max}',
  'resume.refused.kill_switch': '.leopold/STOP está presente — uma run retomada pararia na hora',
  'resume.refused.relaunch_in_grace': 'um relançamento disparado há instantes ainda pode estar iniciando a run; tente de novo em {secs} ' +
    's se ela não tiver sido reativada',
  'resume.refused.already_resumed': 'esta parada já foi retomada (às {at}, por esta ou outra janela); tente de novo em {secs} s se o ' +
    'agente dela não tiver reativado a run',
  'resume.refused.already_resumed.running': 'esta parada já foi retomada (às {at}, por esta ou outra janela) e o agente dela (pid {pid}) ' +
    'ainda está rodando',
  // --- o que o Parar agora se recusa a sinalizar, e por quê (core/continuity/proc.ts) ------------------------------
  'proc.refused.notRunning': 'o processo não está rodando',
  'proc.refused.noExe': 'o executável dele não pode ser lido (/proc/<pid>/exe), então não dá para verificar o que ele roda',
  'proc.refused.notHarness': 'o processo não é o Claude Code nem o Codex (ele roda {exe})',
  'proc.refused.noCwd': 'o diretório de trabalho dele não pode ser lido',
  'proc.refused.otherCwd': 'ele roda em {cwd}, não neste projeto',
  'proc.refused.noClaim': 'o state.json não registra a hora da posse (owner.claimed_at, started_at), então não dá para descartar um pid ' +
    'reutilizado',
  'proc.refused.claimInFuture': 'a hora da posse da run está {secs} s no futuro, então não serve para datar o processo',
  'proc.refused.startedAfterClaim': 'o processo começou depois da posse da run: o pid foi reutilizado por outro processo',
  'proc.refused.self': 'é o próprio processo deste editor',
  'proc.refused.ancestor': 'é um ancestral deste editor (o pid {pid} iniciou o editor ou o processo que o iniciou)',
  'proc.refused.otherStart': 'o pid agora pertence a outro processo (outra hora de início)',
  'proc.refused.noStart': 'a hora de início dele não foi registrada, então não dá para descartar um pid reutilizado',
  'pill.noRun': 'nenhuma run ativa',
  'pill.noRun.why': 'Nenhuma run foi ativada aqui (o state.json está ausente ou vazio).',
  'pill.stateInvalid': 'estado inválido',
  'pill.stateInvalid.why': 'O state.json não é JSON válido; nada é relançado e o arquivo fica como está.',
  'pill.stateSchema.why': '{problem}. O loop espera e não escreve nada até o arquivo ser corrigido.',
  'pill.stateUnreadable': 'estado ilegível',
  'pill.stateUnreadable.why': 'O state.json não é um arquivo regular, ou é grande demais para ser um estado escrito por um hook; ele não ' +
    'é lido, nada é relançado e o arquivo fica como está.',
  'pill.active': 'run ativa · janela {window}/{max}',
  'pill.active.why': 'A run está em andamento.',
  'pill.killSwitch': 'parada · kill_switch',
  'pill.killSwitch.why': 'O .leopold/STOP existe: nada é relançado até que ele seja removido (aí a decisão de relançamento é feita ' +
    'de novo).',
  'pill.stoppedReason': 'parada · {reason}',
  'pill.stopped': 'parada',
  'pill.stoppedReason.why': 'A run parou ({reason}).',
  'pill.stopped.why': 'A run está parada.',
  'pill.relaunching': ' → relançando',
  'pill.relaunched.why': 'Relançada headless ({harness}); esperando a nova sessão reativar a run.',
  'pill.retryIn': ' (nova tentativa em {secs}s)',
  'pill.retryIn.why': 'Um erro de API retryable parou a run; a tentativa {attempt} de 5 dispara em {secs}s.',
  'pill.manual': ' · continuity manual',
  'pill.manual.why': 'O GUARDRAILS.md diz `continuity: manual`: retome na mão.',
  'pill.relaunchedRecorded.why': 'Relançada headless ({harness}); esperando até 120 s a nova sessão reativar a run.',
  'pill.relaunchFailed': ' · relançamento falhou',
  'pill.relaunchFailed.why': 'A janela relançada não reativou a run (o agente saiu antes, ou passaram 120 s): a cadeira está vazia. ' +
    'Retome na mão.',
  'pill.notRetried': ' · sem nova tentativa ({reason})',
  'pill.notRelaunched': ' · não relançada ({reason})',
  'pill.refused.why': 'O loop de continuidade recusou ({reason}){detail}. Retome na mão quando for seguro.',
  'pill.error.why': 'O loop de continuidade não conseguiu decidir.',
  'pill.mode.off': ' · relançamento automático desligado',
  'pill.mode.deferred': ' · o leopold watch decide',
  'pill.mode.untrusted': ' · não confiável',
  'event.max_windows': 'a run alcançou max_windows e parou',
  'event.no_progress_across_windows': 'duas janelas seguidas não fecharam nenhum item: a run parou',
  'event.stop_failure': 'o turno falhou com um erro de API: a run parou (api_error)',
  'event.checkpoint_oversize': 'o checkpoint da compactação passou do teto: nada foi escrito',
  'event.checkpoint_unmergeable': 'não foi possível fazer merge do checkpoint: nada foi escrito',
  'event.window_relaunch_failed': 'a janela relançada nunca reativou a run em 120 s',
  'event.api_error_relaunch_refused': 'a escada de retentativas de api_error recusou: a parada é definitiva',
  'event.state_invalid': 'o state.json estava malformado e foi reiniciado pelo Stop hook',
  'event.guard_block': 'o lock de git negou um comando irreversível',
  'event.window_roll': 'a janela de contexto encheu: a run rolou para uma janela nova',
  'event.checkpoint_grace': 'a janela atingiu o budget sem checkpoint: um turno de carência foi dado',
  'event.window_relaunch': 'a próxima janela foi relançada headless',
  'event.api_error_relaunch': 'uma nova tentativa depois de um erro de API foi relançada',
  'event.owner_takeover': 'outra sessão assumiu a run',
  'event.owner_unknown': 'não foi possível atribuir uma parada ao dono da run',
  'event.lock_timeout': 'um hook não conseguiu pegar o lock do estado',
  'event.checkpoint_instruction': 'a janela passou de 80%: o modelo foi instruído a escrever o checkpoint',
  'event.window_relaunch_refused': 'a próxima janela não foi relançada (veja o motivo; falhas de spawn também caem aqui)',
  'event.foreign_stop': 'uma sessão que não é dona da run parou: nada foi contado',
  'event.compact_resumed': 'a sessão retomou depois de uma compactação',
  'event.turn_start': 'um turno contado começou',
  'event.compact_checkpoint': 'um checkpoint foi escrito antes da compactação',
  'event.stop': 'a run parou; reason nomeia a condição de parada',
  'event.item_start': 'o driver pegou um item do plano',
  'event.item_done': 'um item do plano foi fechado e verificado',
  'event.item_incomplete': 'um item ficou aberto depois de uma tentativa falha',
  'event.cost': 'o gasto do turno e o total acumulado (driver)',
  'event.review': 'uma rodada do painel de revisão terminou, limpa ou bloqueando',
  'event.hypothesis': 'uma hipótese de causa raiz sobreviveu, ou nenhuma',
  'event.learn': 'o aprendiz do charter propôs emendas',
  'event.merge_conflict': 'a worktree de um worker paralelo não fez merge: ela foi mantida',
  'event.subagent_spawn': 'um subagente ou um fork foi lançado',
  'event.persona': 'uma persona falou por um fork, ou um nó humano foi sintetizado',
  'event.awaiting_human': 'a run precisa de uma pessoa para um item que não pode decidir sozinha',
  'event.failure_rescue': 'uma última tentativa com outra abordagem antes de parar',
  'event.failure_rescue_declined': 'nenhuma abordagem diferente foi encontrada: a run para',
  'event.decision_asked': 'um provedor recebeu perguntas tipadas',
  'event.decision_answered': 'uma resposta tipada voltou, com sua faixa (act, escalate ou floor)',
  'event.decision_failed': 'nenhuma resposta utilizável: o caminho determinístico foi usado',
  'event.decision_retry': 'o provedor estava congestionado (429/529): aguardando para tentar de novo',
  'event.decision_timeout': 'o provedor não respondeu a tempo: o veredito léxico ficou',
  'event.decision_denied': 'o eixo semântico transformou um allow léxico em deny',
  'event.permission_decided': 'um pedido de permissão foi respondido pela run',
  'event.persona_guard_block': 'a allowlist da persona negou uma navegação para fora do fluxo',
  'event.api_error_observed': 'o turno de um worker do driver teve um erro de API: a run não parou',
  'event.subagent_started': 'um subagente foi lançado: ele conta contra max_subagents',
  'event.subagent_stopped': 'um subagente terminou: transcript_bytes é o custo dele',
  'event.subagent_cap_denied': 'o teto de subagentes negou um lançamento',
  'event.verify_recorded': 'um comando de verificação do GUARDRAILS rodou: outcome diz o que ele prova',
  'event.done_denied': 'uma alegação de pronto foi recusada: nada verificou o trabalho desde a última edição',
  'event.external_write': 'o PLAN.md ou o DECISIONS.md mudou sem a run escrever: nada foi bloqueado',
  'event.config_change_blocked': 'uma mudança de configurações no meio da run foi recusada: o arquivo em disco manteve a edição',
  'event.detail.iter': 'iter {n}',
  'event.detail.open': 'abertos {n}',
  'event.detail.stuck': 'travado {n}',
  'event.detail.reason': 'motivo: {reason}',
  'event.detail.needsYou': 'o item {item} precisa de você · {text}',
  'event.detail.effort': 'esforço {effort}',
  'event.detail.left': 'restam {n}',
  'event.detail.fails': 'falhas {n}',
  'event.detail.staleOwner': 'dono sem sinal de vida',
  'tree.items.one': '{count} item',
  'tree.items.other': '{count} itens',
  'tree.compactions.one': '{count} compactação',
  'tree.compactions.other': '{count} compactações',
  'tree.badLines.one': '{count} linha ruim',
  'tree.badLines.other': '{count} linhas ruins',
  'tree.window.checkpoint': 'checkpoint ✓',
  'tree.window.noCheckpoint': 'sem checkpoint',
  'tree.window.label': 'Janela {n}',
  'tree.event.unregistered': 'fora do registro de eventos (mostrado com seus campos)',
  'tree.window.gap': 'Janelas {from}–{to}',
  'tree.window.gap.desc': 'sem registro no journal nem no state.json',
  'tree.window.gap.tooltip': '{count} janelas contadas por "windows" no state.json sem roll no journal e sem entrada em window_progress',
  'tree.archive.windows.tooltip': 'Janelas de contexto desta run arquivada, do events.jsonl arquivado',
  'tree.window.tooltip.of': 'Janela {n} de no máximo {max}',
  'tree.window.tooltip.items': 'Itens fechados: {count}',
  'tree.window.tooltip.contextRunning': 'Contexto: {mb} MB (último turno)',
  'tree.window.tooltip.contextRoll': 'Contexto: {mb} MB no roll',
  'tree.window.tooltip.checkpoint': 'Checkpoint escrito no roll: {answer}',
  'tree.yes': 'sim',
  'tree.no': 'não',
  'tree.window.tooltip.compactions': 'Compactações sobrevividas: {count}',
  'tree.window.tooltip.ended': 'Fim: {detail}',
  'tree.plan.next': 'próximo',
  'tree.plan.after': 'depois de {deps}',
  'tree.plan.scenarios': 'Cenários:',
  'tree.plan.line': 'PLAN.md linha {line}',
  'tree.state.empty': 'o state.json está vazio',
  'tree.state.invalidJson': 'o state.json não é JSON válido',
  'tree.state.invalid': 'o state.json é inválido',
  'tree.state.notRegular': 'o state.json não é um arquivo regular',
  'tree.state.notRegular.desc': '{kind}; não lido (um FIFO ou um dispositivo bloquearia a leitura de arquivos de todas as extensões)',
  'tree.state.tooLarge': 'o state.json é grande demais',
  'tree.state.tooLarge.desc': '{size}, acima dos {limit} que um estado escrito por um hook nunca alcança; não lido',
  'file.kind.directory': 'um diretório',
  'file.kind.fifo': 'um FIFO',
  'file.kind.socket': 'um socket',
  'file.kind.device': 'um dispositivo',
  'file.kind.other': 'não é um arquivo',
  'tree.state.tooltip': 'O arquivo é mostrado como está e nunca é reescrito pela extensão.',
  'tree.status': 'Status',
  'tree.status.tooltip': 'Status: {label}',
  'tree.status.noRun': 'ainda sem run (sem state.json)',
  'tree.iteration': 'Iteração',
  'tree.iteration.tooltip': 'Turnos contados, na run inteira: {n} de no máximo {max}',
  'tree.owner': 'Dono',
  'tree.owner.unknown': 'desconhecido',
  'tree.owner.noLife': 'sem sinal de vida',
  'tree.owner.alive': 'vivo ({age})',
  'tree.owner.stale': 'abandonado ({age})',
  'tree.owner.none': '(nenhum)',
  'tree.owner.tooltip': 'Sessão dona: {session}\nEngine: {engine}\nHarness: {harness}',
  'tree.owner.signal': ' — sinal mais recente: {signal}',
  'tree.owner.aliveMeans': 'Vivo quer dizer um sinal de vida nos últimos 10 minutos.',
  'tree.owner.pid': 'pid {pid}',
  'tree.owner.openTranscript': 'Clique para abrir a transcrição: {path}',
  'tree.relaunch': 'Relançamento',
  'tree.relaunch.running': '{harness} · pid {pid} · em execução desde {time}',
  'tree.relaunch.earlyCode': 'saiu com código {code} antes de reativar a execução',
  'tree.relaunch.earlySignal': 'encerrado por {signal} antes de reativar a execução',
  'tree.relaunch.exitedCode': 'saiu com código {code}',
  'tree.relaunch.exitedSignal': 'encerrado por {signal}',
  'tree.relaunch.exitedUnknown': 'encerrado enquanto o VS Code estava fechado',
  'tree.relaunch.tooltip': 'Agente iniciado pelo Leopold for VS Code ({path}) às {time}, pid {pid}\n{argv}\nSaída: {log} (clique ' +
    'para abrir)',
  'tree.relaunch.lastOutput': 'Última saída:',
  'tree.windows': 'Janelas',
  'tree.windows.tooltip': 'Janelas de contexto desta run (max_windows {max})',
  'tree.plan': 'Plano',
  'tree.plan.done': '{done} / {total} feitos',
  'tree.plan.none': 'sem PLAN.md',
  'tree.plan.tooltip.next': 'Próximo: {index}. {text}',
  'tree.plan.tooltip.allDone': 'Todos os itens estão feitos',
  'tree.plan.tooltip.missing': 'O PLAN.md não existe',
  'tree.events': 'Eventos recentes',
  'tree.events.skipped': ' · {lines} ignoradas',
  'tree.events.none': 'sem events.jsonl',
  'tree.events.notRegular': 'o events.jsonl não é um arquivo regular ({kind}); não lido',
  'tree.events.tooltip': 'Os eventos mais recentes do journal (events.jsonl), do mais novo ao mais antigo; linhas malformadas são ' +
    'ignoradas',
  'tree.event.noTs': '(sem ts)',
  'tree.files': 'Arquivos',
  'tree.file.missing': 'ausente',
  'tree.file.notRegular': 'não é um arquivo regular ({kind}); não lido',
  'tree.file.tooLarge': 'grande demais ({size}); não lido',
  'tree.file.checkpointTooltip': 'CHECKPOINT.md: {verdict}\n(validado contra o contrato do checkpoint; abra-o para os detalhes)',
  'tree.run.plan': ' · plano {done}/{total}',
  'tree.run.desc': '{status} · iteração {iteration}/{max} · janela {window}/{windows}{plan}',
  'tree.run.noRun': 'ainda sem run{plan}',
  'tree.run.unreadable': 'state.json ilegível{plan}',
  'tree.project.desc': '{status} · janela {window}/{windows}',
  'tree.project.noRun': 'ainda sem run',
  'tree.project.invalid': 'state.json inválido',
  'tree.currentRun': 'Run atual',
  'tree.archives': 'Runs arquivadas',
  'tree.archives.tooltip': 'runs/: runs arquivadas, da mais nova à mais antiga',
  'tree.archives.more.one': 'mais {count}…',
  'tree.archives.more.other': 'mais {count}…',
  'tree.archives.more.tooltip': 'Clique para mostrar as próximas {page} runs arquivadas',
  // --- a linha do tempo da run (core/timeline.ts) ---------------------------------------------------------------
  'timeline.title': 'Linha do tempo da run — {project}',
  'timeline.subtitle': '{status} · janela {window}/{max}{plan} · atualizado {at}',
  'timeline.plan': ' · plano {done}/{total}',
  'timeline.empty': 'Ainda sem run: o .leopold/state.json não existe ou não pode ser lido.',
  'timeline.noMarks': 'nenhum roll, compactação ou relançamento no journal',
  'timeline.window.from': 'de {time}',
  'timeline.window.to': 'até {time}',
  'timeline.verdict': 'Veredito: {verdict}',
  'timeline.verdict.tooltip': '{verdict} — {who}{mode}',
  'timeline.apiError': 'Erro de API: {type}{hint}',
  'timeline.apiError.hint': ' — dica: {hint}',
  'timeline.verdict.supervisor': 'o supervisor',
  'timeline.verdict.observed': 'lido dos arquivos (nenhum supervisor rodando)',
  'timeline.mark.roll.one': 'janela {window} rolou · {count} item fechado',
  'timeline.mark.roll.other': 'janela {window} rolou · {count} itens fechados',
  'timeline.mark.compaction': 'compactação ({trigger})',
  'timeline.mark.compactionBytes': 'compactação ({trigger}) · {bytes} bytes',
  'timeline.mark.relaunch': 'relançada headless ({harness})',
  'timeline.mark.relaunchRefused': 'relançamento recusado: {reason}',
  'timeline.mark.relaunchFailed': 'relançamento falhou: nunca reativou',
  'timeline.mark.apiError': 'erro de API: {type}{retryable}',
  'timeline.mark.retryable': ' (retryable)',
  'timeline.mark.notRetryable': ' (não retryable)',
  'timeline.mark.apiRetry': 'tentativa de API {attempt} relançada ({harness})',
  'timeline.mark.apiRefused': 'nova tentativa de API recusada: {reason}',
  'timeline.mark.grace': 'turno de carência do checkpoint',
  'timeline.mark.maxWindows': 'parada: max_windows',
  'timeline.mark.noProgress': 'parada: no_progress_across_windows',
  'timeline.legend.roll': 'roll de janela',
  'timeline.legend.compaction': 'compactação',
  'timeline.legend.relaunch': 'relançamento',
  'timeline.legend.relaunchRefused': 'relançamento recusado / falhou',
  'timeline.legend.apiError': 'erro de API',
  'timeline.legend.apiRetry': 'nova tentativa de API',
  'tree.archive.notStamped': 'sem carimbo',
  'doctor.extension': '(Leopold para VS Code) ',
  'doctor.cp.oversize': 'o checkpoint tem {bytes} bytes, acima do teto de {cap} bytes — consolide-o (faça merge, descarte fatos velhos)',
  'doctor.cp.brief': 'o checkpoint tem uma seção "## {name}" — estado do brief (Mission/Charter/Guardrails/Plan) nunca vive no ' +
    'checkpoint; a próxima janela relê o próprio brief',
  'doctor.cp.unknown': 'o checkpoint tem uma seção desconhecida "## {name}" — o contrato é: {list}',
  'doctor.cp.duplicate': 'o checkpoint tem "## {name}" duas vezes — um checkpoint anterior aninhado; faça merge, nunca aninhe',
  'doctor.cp.nested': 'o checkpoint contém {count} títulos "{title}" — um checkpoint anterior aninhado; faça merge, nunca aninhe',
  'doctor.cp.missing': 'faltam seções no checkpoint: {list}',
  'doctor.cp.order': 'as seções do checkpoint estão fora de ordem: "{found}" está onde "{expected}" deveria estar — a ordem é fixa',
  'doctor.header': 'leopold doctor',
  'doctor.emptyFile': 'o arquivo está vazio',
  'doctor.blockTitle': 'continuidade do projeto ({leoDir})',
  'doctor.absent': 'nenhuma run do Leopold em {leoDir} (nem MISSION.md nem state.json existem)',
  'doctor.driver': 'driver',
  'doctor.noLifeFor': 'sem sinal de vida há {age}s',
  'doctor.andMore': ' (e mais {more})',
  'doctor.plusMore': ' (+{more})',
  'doctor.state-invalid-json': 'o state.json não é JSON válido ({message}) — o Stop hook o substitui por ' +
    '{"active":false,"stopped_reason":"state_invalid"}',
  'doctor.state-invalid': 'campo {path} do state.json: {message}{more} — os escritores do Leopold esperam outro tipo aqui',
  'doctor.state-not-regular': 'o state.json não é um arquivo regular ({kind}) — não lido; um FIFO bloquearia todo leitor, os hooks ' +
    'inclusive',
  'doctor.state-too-large': 'o state.json tem {mb} MB, acima dos {limit} MB que um estado escrito por um hook nunca alcança — não ' +
    'analisado',
  'doctor.kill-switch': 'kill switch presente (.leopold/STOP) — nada relança esta run até que ele seja removido',
  'doctor.owner-alive': 'dono da run: sessão {short} {desc} — vivo, visto há {age}s',
  'doctor.owner-stale': 'dono da run: sessão {short} {desc} — {lifeless}; /leopold-run numa sessão nova assume a run',
  'doctor.owner-driver-alive': 'dono da run: leopold run {desc} — vivo, visto há {age}s',
  'doctor.owner-driver-stale': 'dono da run: leopold run {desc} — {lifeless}; o próximo leopold run o recolhe, ou /leopold-run assume',
  'doctor.owner-none': 'run ativa SEM sessão dona — toda sessão que para neste checkout é continuada e contada; reative com /leopold-run ' +
    'para ligar a run a uma sessão',
  'doctor.foreign-stops': '{count} parada(s) de outras sessões foram recusadas (foreign_stop) — há uma segunda janela aberta neste ' +
    'checkout; ela não é contada, mas compartilha a árvore de trabalho',
  'doctor.state-tracked': 'o state.json é RASTREADO pelo git — toda worktree e todo clone herdam o estado desta run (e o lock de git ' +
    'dela); adicione .leopold/ ao .gitignore e tire-o do rastreamento',
  'doctor.state-tracking-no-git': 'não é um repositório git — não foi verificado se o .leopold/state.json é rastreado',
  'doctor.state-tracking-not-checked': 'não foi verificado se o .leopold/state.json é rastreado pelo git (Modo Restrito: o git não roda ' +
    'num workspace não confiável)',
  'doctor.checkpoint-ok': 'checkpoint OK ({bytes} bytes) — a próxima janela continua a partir dele',
  'doctor.checkpoint-absent': 'sem checkpoint (normal — um roll de janela escreve o .leopold/CHECKPOINT.md antes de a janela fechar)',
  'doctor.checkpoint-malformed': 'checkpoint MALFORMADO: {error}{more} — uma ressemeadura não pode confiar no .leopold/CHECKPOINT.md; ' +
    'corrija-o ou arquive-o',
  'doctor.continuity-auto': 'continuity auto — o leopold watch relança headless uma janela rolada',
  'doctor.continuity-manual': 'continuity manual — o relançamento está DESLIGADO; retome você mesmo uma janela rolada com /leopold-run',
  'doctor.continuity-unknown': "continuity '{value}' não é uma configuração (auto|manual) — tratada como auto; corrija a linha em " +
    ".leopold/GUARDRAILS.md",
  'doctor.windows': 'janelas {n}/{m}',
  'doctor.windows-ceiling': 'janelas {n}/{m} — o teto foi alcançado; o próximo roll para a run (aumente max_windows em ' +
    '.leopold/GUARDRAILS.md se ela realmente precisar de mais)',
  'doctor.windows-stopped': 'janelas {n}/{m} — o teto foi alcançado e a run parou ({reason}); aumente max_windows em ' +
    '.leopold/GUARDRAILS.md e retome com /leopold-run se ela realmente precisar de mais',
  'doctor.progress': 'a última janela fechou {k} item(ns) do plano',
  'doctor.firstRun.title': 'o que uma primeira run precisa (Leopold para VS Code)',
  'doctor.agent-found': '{harness} encontrado: {path} — {version}',
  'doctor.agent-found-untrusted': '{harness} encontrado: {path} — a versão não é consultada no Modo Restrito (isso o iniciaria)',
  'doctor.agent-version-failed': '{harness} encontrado: {path}, mas "{harness} --version" falhou ({reason}) — um relançamento iniciaria ' +
    'este arquivo',
  'doctor.agent-missing': '{harness} não encontrado: {reason}',
  'doctor.agent-unused': '{harness} não encontrado — nenhuma run aqui o usa (ele só é preciso para relançar ou retomar uma run {harness})',
  'doctor.agents-missing': 'nem claude nem codex podem ser iniciados — relançamentos e Retomar precisam de um: defina ' +
    'leopold.claude.path ou leopold.codex.path',
  'doctor.watch-serving': '{project}: leopold watch (pid {pid}, porta {port}) atende este projeto — o ciclo de relançamento da extensão ' +
    'cede a ele',
  'doctor.watch-none': '{project}: nenhum leopold watch atende este projeto — o item Leopold da barra de status roda o ciclo de ' +
    'relançamento enquanto o VS Code está aberto',
  'doctor.watch-none-untrusted': '{project}: nenhum leopold watch atende este projeto, e no Modo Restrito nada o relança',
  'doctor.watch-unknown': '{project}: não foi verificado se um leopold watch atende este projeto (os processos não podem ser listados ' +
    'neste sistema)',
  'doctor.noVersion': 'não imprimiu versão',
  'doctor.progress-zero': 'a última janela fechou ZERO itens do plano — mais uma janela sem itens encerra a run ' +
    '(no_progress_across_windows)',
  'doctor.progress-stopped': 'a última janela fechou ZERO itens do plano — a run parou ({reason}): janelas seguidas não fecharam nada; ' +
    'retome com /leopold-run quando o plano puder avançar',
  'doctor.summary': 'resumo: {ok} ok, {warnings} avisos, {problems} problemas',
  'doctor.healthy': 'O Leopold parece saudável.',
  'doctor.fixFails': 'Corrija os itens [FAIL] acima.',
};

export const CATALOG: Readonly<Record<Locale, Readonly<Record<MessageKey, string>>>> = { en: EN, 'pt-br': PT_BR };

export type MessageArgs = Readonly<Record<string, string | number | undefined>>;

/** The message `key` in `locale` with `{name}` placeholders filled (an unknown placeholder is left as written). */
/** Each message split once at its placeholders: [text, name, text, name, …, text] (msg runs per finding). */
const TEMPLATES = new Map<string, string[]>();

export function msg(locale: Locale | undefined, key: MessageKey, args?: MessageArgs): string {
  const s = CATALOG[locale ?? 'en']?.[key] ?? EN[key];
  if (!args) return s;
  let parts = TEMPLATES.get(s);
  if (!parts) TEMPLATES.set(s, (parts = s.split(/\{(\w+)\}/)));
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const v = args[parts[i]];
    out += (v !== undefined ? String(v) : `{${parts[i]}}`) + parts[i + 1];
  }
  return out;
}

type Counted<K> = K extends `${infer B}.one` ? (`${B}.other` extends MessageKey ? B : never) : never;
/** The base of a counted pair of keys (`key.one` / `key.other`): what `msgN` takes. */
export type CountedKey = Counted<MessageKey>;
const PLURALS: Readonly<Record<Locale, Intl.PluralRules>> = { en: new Intl.PluralRules('en'), 'pt-br': new Intl.PluralRules('pt-BR') };

/** `one` or `other` for `count` by the language's own rule (CLDR): English `0 items`, Portuguese `0 item` (0 and 1 are singular). */
export function pluralCategory(locale: Locale | undefined, count: number): 'one' | 'other' {
  return PLURALS[locale ?? 'en'].select(count) === 'one' ? 'one' : 'other';
}

/** A counted message: `key.one` or `key.other`, chosen by `Intl.PluralRules` for the locale (pluralCategory). */
export function msgN(locale: Locale | undefined, key: CountedKey, count: number, args?: MessageArgs): string {
  return msg(locale, `${key}.${pluralCategory(locale, count)}` as MessageKey, { count, ...args });
}

/** A decimal for a person: `1.5` in English, `1,5` in Portuguese. */
export function decimal(locale: Locale | undefined, text: string): string {
  return locale === 'pt-br' ? text.replace('.', ',') : text;
}

/** The placeholders a message uses, sorted (for the catalog's consistency test). */
export function placeholders(s: string): string[] {
  return [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
}

// The relaunch loop's sentences: Resume's refusals (resume.ts), what Stop now refuses to signal (proc.ts), the status
// pill (pill.ts). Owned by core/continuity/ and gathered with the other catalogs by core/messages.ts.
// Contract identifiers (section names, event names, stop reasons, state.json fields, file names) stay verbatim in both
// languages.

import { messages, type CountedOf } from '../l10n';

export const CONTINUITY_EN = {
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
  'pill.stopping': 'stopping · STOP · window {window}/{max}',
  'pill.stopping.why': '.leopold/STOP is set: the run stops at its next turn, and nothing is relaunched while STOP is there.',
  'pill.stoppedGone': 'stopped · STOP · owner gone · window {window}/{max}',
  'pill.stoppedGone.why': 'The run\'s agent has ended and .leopold/STOP is set: state.json still reads active because the Stop hook ' +
    'never ran. Clear the kill switch and resume to go on.',
  'pill.activeGone': 'run active · owner gone · window {window}/{max}',
  'pill.activeGone.why': 'state.json reads active, but the owner\'s process is gone: the agent ended without its Stop hook, and nothing ' +
    'relaunches an active run. Stop the run, or resume it.',
  'pill.killSwitch.why': '.leopold/STOP is present: nothing is relaunched until it is removed (the relaunch decision is then made again).',
  'pill.stoppedReason': 'stopped · {reason}',
  'pill.stopped': 'stopped',
  'pill.stoppedReason.why': 'The run stopped ({reason}).',
  'pill.answered': 'stopped · awaiting_human · answered — resume',
  'pill.answered.why': 'The plan item that waited for you is ticked in PLAN.md: resume the run to go on.',
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
};

export const CONTINUITY_PT_BR: Record<keyof typeof CONTINUITY_EN, string> = {
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
  'pill.stopping': 'parando · STOP · janela {window}/{max}',
  'pill.stopping.why': 'O .leopold/STOP existe: a run para no próximo turno, e nada é relançado enquanto o STOP estiver lá.',
  'pill.stoppedGone': 'parada · STOP · dono encerrado · janela {window}/{max}',
  'pill.stoppedGone.why': 'O agente da run terminou e o .leopold/STOP existe: o state.json ainda diz ativa porque o hook de Stop não ' +
    'rodou. Limpe o kill switch e retome para continuar.',
  'pill.activeGone': 'run ativa · dono encerrado · janela {window}/{max}',
  'pill.activeGone.why': 'O state.json diz ativa, mas o processo do dono terminou: o agente terminou sem o hook de Stop, e nada relança ' +
    'uma run ativa. Pare a run ou retome-a.',
  'pill.killSwitch.why': 'O .leopold/STOP existe: nada é relançado até que ele seja removido (aí a decisão de relançamento é feita ' +
    'de novo).',
  'pill.stoppedReason': 'parada · {reason}',
  'pill.stopped': 'parada',
  'pill.stoppedReason.why': 'A run parou ({reason}).',
  'pill.answered': 'parada · awaiting_human · respondido — retome',
  'pill.answered.why': 'O item do plano que esperava por você está marcado no PLAN.md: retome a run para continuar.',
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
};

export type MessageKey = keyof typeof CONTINUITY_EN;
export type CountedKey = CountedOf<MessageKey>;
export const { msg, msgN } = messages(CONTINUITY_EN, CONTINUITY_PT_BR);

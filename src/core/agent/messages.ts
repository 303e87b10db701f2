// The sentences of `leopold-status` (src/cli/) and of the notify command's log lines, kept beside the agent core and
// gathered with the others by src/core/messages.ts (one mechanism, core/l10n.ts: `msg`/`msgN`).
// Contract identifiers (stop reasons, verdict reasons, meter labels, flags, file names) stay verbatim in both languages.

import { messages, type CountedOf } from '../l10n';

export const STATUS_EN = {
  'status.window': 'window {current}/{max}',
  'status.plan': 'plan {done}/{total}',
  'status.cost': '≈ ${usd}',
  'status.costPartial': '≥ ${usd} (still counting)',
  'status.loop.relaunch': 'loop: would relaunch the next window ({harness})',
  'status.loop.relaunchHarness': 'loop: would relaunch the next window (harness not detected yet)',
  'status.loop.api_relaunch': 'loop: would retry the API error ({harness})',
  'status.loop.refuse': 'loop: would not relaunch ({reason})',
  'status.loop.api_refuse': 'loop: would not retry the API error ({reason})',
  'status.loop.wait': 'loop: the API error retry is due in {seconds} s',
  'status.loop.none': 'loop: nothing to do ({reason})',
  'status.tokens': 'tokens (run): {tokens}',
  'status.meters': 'meters: {meters} · decisions {decisions} · DECISIONS.md {entries}',
  'status.needsYou': 'needs you: {text}',
  'status.partial': 'still counting: {what}',
  'status.watcher.process': 'relaunch loop: leopold watch (pid {pid}, {host}:{port}) serves this project',
  'status.watcher.port': 'relaunch loop: a leopold watch answers on {host}:{port} (processes cannot be listed here: it may serve another ' +
    'project)',
  'status.watcher.extension': 'relaunch loop: the Leopold extension in VS Code (continuity: auto)',
  'status.watcher.none': 'relaunch loop: no leopold watch serves this project (only the Leopold extension, in VS Code with the ' +
    'project open)',
  'status.watcher.noneProbed': 'relaunch loop: no leopold watch answers on 127.0.0.1:{port} (only the Leopold extension, in VS Code ' +
    'with the project open)',
  'status.why': 'why: {why}',
  'status.why.figure.context': 'gauge',
  'status.why.figure.tokens': 'tokens',
  'status.why.figure.costUsd': 'cost',
  'status.why.noTranscript': 'no transcript found: state.json names none, and none of this project\'s sessions is in {claude} ' +
    '(CLAUDE_CONFIG_DIR decides) or {codex} (CODEX_HOME decides)',
  'status.why.unnamed': 'state.json names no transcript for the running window (owner.transcript_path, transcript_path): the gauge ' +
    'measures that file',
  'status.why.outside': 'state.json names a transcript outside the folders read here ({claude}, {codex}; CLAUDE_CONFIG_DIR and ' +
    'CODEX_HOME decide them): {path}',
  'status.why.refused': 'state.json names no transcript ({what}): {path}',
  'status.why.notRegular': 'the transcript state.json names is a {kind}, not a file: {path}',
  'status.why.missing': 'the transcript state.json names is not there: {path}',
  'status.why.unknownFormat': 'the transcript is neither a Claude Code session nor a Codex rollout: {path}',
  'status.why.unavailable': 'unavailable: {why}',
  'status.why.unknownPrice': 'unknown price: {models} not in the price table (add it to .leopold/prices.json or $LEOPOLD_PRICES)',
  'status.why.partial': 'history cut short: what could be read in the time allowed, a lower bound',
  'status.driver.items': 'items {done}/{total}',
  'status.driver.line': 'driver: {done}/{total} done · {running} running · {spend}',
  'status.driver.spend': '${spent} of ${budget}',
  'status.driver.spendNoBudget': '${spent} · no budget',
  'status.driver.exceeded': 'budget_exceeded',
  'status.driver.conflicts.one': '{count} merge conflict',
  'status.driver.conflicts.other': '{count} merge conflicts',
  'status.driver.failed': '{n} incomplete',
  'status.driver.awaiting': 'awaiting you: #{index}',
  'status.driver.commands.one': '{count} Canvas command pending',
  'status.driver.commands.other': '{count} Canvas commands pending',
  'status.cli.usage': 'usage: leopold-status [--json] [--now <ISO-8601>] [--statusline] [--watch] [--insights] [--mcp] [--allow DIR] ' +
    '[--review [--window N] [--run NAME]] [(--rewind N | --revert N) --dry-run] [PROJECT_DIR]',
  'status.cli.insightsAlone': '--insights takes only --json',
  'status.cli.previewOnly': '--rewind and --revert only show the plan: add --dry-run (leopold-status never writes)',
  'status.cli.noSnapshots': 'no snapshots to take window {n} back: {reason}',
  'status.cli.noRecordedEdit': 'changed during the window (no recorded edit) — may be a person\'s',
  'status.cli.noProject': 'no .leopold/ in {dir}',
  'status.cli.notDirectory': '{path} is not a directory',
  'status.cli.unreadable': 'cannot read the Leopold project in {dir}: {reason}',
  'status.cli.badNow': '--now must be an ISO-8601 time such as 2026-11-30T06:31:47Z, not "{value}"',
  'status.cli.badArgs': '{problem}',
  'status.cli.allowWithoutMcp': '--allow is only for --mcp',
  'status.cli.mcpAlone': '--mcp does not take --json, --statusline, --watch or --now',
  'status.cli.jsonStatusline': '--json and --statusline do not go together',
  'status.cli.mcpListening': 'leopold-status: MCP server for {dir} on stdio (read-only; allowed: {allowed})',
};

export const STATUS_PT_BR: Record<keyof typeof STATUS_EN, string> = {
  'status.window': 'janela {current}/{max}',
  'status.plan': 'plano {done}/{total}',
  'status.cost': '≈ ${usd}',
  'status.costPartial': '≥ ${usd} (ainda contando)',
  'status.loop.relaunch': 'loop: relançaria a próxima janela ({harness})',
  'status.loop.relaunchHarness': 'loop: relançaria a próxima janela (harness ainda não detectado)',
  'status.loop.api_relaunch': 'loop: tentaria de novo após o erro de API ({harness})',
  'status.loop.refuse': 'loop: não relançaria ({reason})',
  'status.loop.api_refuse': 'loop: não tentaria de novo após o erro de API ({reason})',
  'status.loop.wait': 'loop: a nova tentativa após o erro de API vence em {seconds} s',
  'status.loop.none': 'loop: nada a fazer ({reason})',
  'status.tokens': 'tokens (run): {tokens}',
  'status.meters': 'medidores: {meters} · decisões {decisions} · DECISIONS.md {entries}',
  'status.needsYou': 'precisa de você: {text}',
  'status.partial': 'ainda contando: {what}',
  'status.watcher.process': 'loop de relançamento: leopold watch (pid {pid}, {host}:{port}) atende este projeto',
  'status.watcher.port': 'loop de relançamento: um leopold watch responde em {host}:{port} (aqui não dá para listar processos: pode ' +
    'atender outro projeto)',
  'status.watcher.extension': 'loop de relançamento: a extensão Leopold no VS Code (continuity: auto)',
  'status.watcher.none': 'loop de relançamento: nenhum leopold watch atende este projeto (só a extensão Leopold, no VS Code com o ' +
    'projeto aberto)',
  'status.watcher.noneProbed': 'loop de relançamento: nenhum leopold watch responde em 127.0.0.1:{port} (só a extensão Leopold, no VS ' +
    'Code com o projeto aberto)',
  'status.why': 'por quê: {why}',
  'status.why.figure.context': 'medidor',
  'status.why.figure.tokens': 'tokens',
  'status.why.figure.costUsd': 'custo',
  'status.why.noTranscript': 'nenhuma transcrição encontrada: o state.json não nomeia nenhuma, e nenhuma sessão deste projeto está ' +
    'em {claude} (CLAUDE_CONFIG_DIR decide) nem em {codex} (CODEX_HOME decide)',
  'status.why.unnamed': 'o state.json não nomeia a transcrição da janela em curso (owner.transcript_path, transcript_path): o ' +
    'medidor mede esse arquivo',
  'status.why.outside': 'o state.json nomeia uma transcrição fora das pastas lidas aqui ({claude}, {codex}; CLAUDE_CONFIG_DIR e ' +
    'CODEX_HOME as decidem): {path}',
  'status.why.refused': 'o state.json não nomeia uma transcrição ({what}): {path}',
  'status.why.notRegular': 'a transcrição que o state.json nomeia é um {kind}, não um arquivo: {path}',
  'status.why.missing': 'a transcrição que o state.json nomeia não está lá: {path}',
  'status.why.unknownFormat': 'a transcrição não é uma sessão do Claude Code nem um rollout do Codex: {path}',
  'status.why.unavailable': 'indisponível: {why}',
  'status.why.unknownPrice': 'preço desconhecido: {models} fora da tabela de preços (acrescente em .leopold/prices.json ou ' +
    '$LEOPOLD_PRICES)',
  'status.why.partial': 'histórico cortado: o que pôde ser lido no tempo permitido, um limite inferior',
  'status.driver.items': 'itens {done}/{total}',
  'status.driver.line': 'driver: {done}/{total} feitos · {running} em execução · {spend}',
  'status.driver.spend': '${spent} de ${budget}',
  'status.driver.spendNoBudget': '${spent} · sem orçamento',
  'status.driver.exceeded': 'budget_exceeded',
  'status.driver.conflicts.one': '{count} conflito de merge',
  'status.driver.conflicts.other': '{count} conflitos de merge',
  'status.driver.failed': 'incompletos: {n}',
  'status.driver.awaiting': 'aguardando você: #{index}',
  'status.driver.commands.one': '{count} comando do Canvas pendente',
  'status.driver.commands.other': '{count} comandos do Canvas pendentes',
  'status.cli.usage': 'uso: leopold-status [--json] [--now <ISO-8601>] [--statusline] [--watch] [--insights] [--mcp] [--allow DIR] ' +
    '[--review [--window N] [--run NOME]] [(--rewind N | --revert N) --dry-run] [PASTA_DO_PROJETO]',
  'status.cli.previewOnly': '--rewind e --revert só mostram o plano: acrescente --dry-run (o leopold-status nunca escreve)',
  'status.cli.noSnapshots': 'não há snapshots para desfazer a janela {n}: {reason}',
  'status.cli.noRecordedEdit': 'alterado durante a janela (nenhuma edição registrada) — pode ser de uma pessoa',
  'status.cli.insightsAlone': '--insights aceita apenas --json',
  'status.cli.noProject': 'não há .leopold/ em {dir}',
  'status.cli.notDirectory': '{path} não é uma pasta',
  'status.cli.unreadable': 'não foi possível ler o projeto Leopold em {dir}: {reason}',
  'status.cli.badNow': '--now deve ser um horário ISO-8601 como 2026-11-30T06:31:47Z, não "{value}"',
  'status.cli.badArgs': '{problem}',
  'status.cli.allowWithoutMcp': '--allow é só para --mcp',
  'status.cli.mcpAlone': '--mcp não aceita --json, --statusline, --watch nem --now',
  'status.cli.jsonStatusline': '--json e --statusline não combinam',
  'status.cli.mcpListening': 'leopold-status: servidor MCP para {dir} em stdio (só leitura; permitidas: {allowed})',
};

export type MessageKey = keyof typeof STATUS_EN;
export type CountedKey = CountedOf<MessageKey>;
export const { msg, msgN } = messages(STATUS_EN, STATUS_PT_BR);

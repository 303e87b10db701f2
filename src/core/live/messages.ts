// The live run's sentences (runsTreeLive.ts renders them), kept beside the live core and merged into the core's
// one catalog (src/core/messages.ts spreads them into EN and PT_BR: one mechanism, `msg`/`msgN`).
// Contract identifiers (state.json fields, event names, stop reasons, tool names) stay verbatim in both languages.

import { messages, type CountedOf } from '../l10n';

export const LIVE_EN = {
  'live.context': 'Context',
  'live.context.desc': '{gauge} · {pct}%{band}',
  'live.context.band.checkpoint': ' · checkpoint band',
  'live.context.band.roll': ' · roll',
  'live.context.off': '{size} · max_context_mb 0 (no roll)',
  'live.context.unknown': 'transcript unknown',
  'live.context.missing': 'transcript not found',
  'live.context.notRegular': 'transcript is {kind}; not read',
  'live.context.refused': 'transcript not read: not where transcripts are kept',
  'live.context.refused.tooltip': 'state.json names {path}, which is not where Claude Code or Codex keep transcripts (their projects/ ' +
    'and sessions/ folders) nor a file of the project outside .leopold/: it is not read.',
  'live.context.tooltip': "The running window's transcript, measured as Leopold's Stop hook measures it: its file size ({bytes} bytes) " +
    ("against max_context_mb {max} MiB. At 80 % every turn is told to checkpoint (the checkpoint band); at 100 % the window " +
      "rolls.\n{path} ({source})"),
  'live.context.unknown.tooltip': "state.json names no transcript yet (neither owner.transcript_path nor transcript_path): the window's " +
    "size is not known, and is not guessed.",
  'live.context.missing.tooltip': 'state.json names {path} ({source}), and no readable file is there.',
  'live.live': 'Live',
  'live.live.desc.idle': 'last write {age}',
  'live.live.tooltip': 'What the agent is doing now, read from the transcript as it grows (only the appended bytes). Text from the ' +
    'transcript is shown as plain text.\nClick: open the transcript at its end (read-only).',
  'live.tool': 'Tool call',
  'live.tool.running': 'running',
  'live.tool.none': 'none yet',
  'live.text': 'Assistant',
  'live.text.none': 'no text yet',
  'live.idle': 'Last write',
  'live.turns': 'Turns in this window',
  'live.turns.tooltip': 'Distinct assistant messages in the running window (Claude Code writes one line per content block; each message ' +
    'is counted once). Codex: turns.',
  'live.harness': 'Harness',
  'live.harness.unknown': 'not a Claude Code session nor a Codex rollout',
  'live.tokens.window': 'Tokens (window {n})',
  'live.tokens.run': 'Tokens (run)',
  'live.tokens.desc': 'in {input} · out {output} · cache write {cacheWrite} · cache read {cacheRead}',
  'live.tokens.counting': ' · counting…',
  'live.tokens.tooltip': 'Input {input}, output {output}, cache write {cacheWrite}, cache read {cacheRead} tokens.\nMain: {main} · ' +
    ('subagents: {sub} ({files} subagent transcripts).\nCounted once per message (by message.id and requestId), not once per line as ' +
      'leopold watch counts.'),
  'live.tokens.run.tooltip': "Every window of this run whose session transcript was found (the sessions the journal and state.json name, " +
    "and the harness's sessions of this project written during the run), with the subagent transcripts beside them.\n{windows}",
  'live.tokens.unknown': 'unknown — no transcript found',
  'live.tokens.unknown.tooltip': 'No transcript of this window was found: its tokens are unknown, not zero.',
  'live.tokens.window.line': 'window {n}: {tokens} tokens · ≈ ${usd}{missing}',
  'live.tokens.window.missing': ' · transcript not found',
  'live.tokens.unavailable': 'unavailable — {why}',
  'live.tokens.unavailable.tooltip': 'Its transcript was found, but it records no token counts: its tokens and cost are unavailable, ' +
    'not zero.',
  'live.tokens.why.old-format': 'an old-format Codex rollout records no token counts',
  'live.tokens.why.no-token-records': 'the transcript has no token count yet (no turn counted)',
  'live.tokens.window.unavailable': ' · unavailable: {why}',
  'live.totals': 'Totals',
  'live.totals.desc': '{tokens} tokens · ≈ ${usd}',
  'live.totals.tooltip': 'The run is no longer active: its figures, every window counted once when it stopped (nothing is read after).',
  'live.totals.costRun': '≈ ${run} run',
  'live.cost': 'Cost (estimate)',
  'live.cost.desc': '≈ ${usd} window · ≈ ${run} run',
  'live.cost.unknown': 'unknown',
  'live.cost.unknownPrice': 'unknown price',
  'live.cost.unpriced': ' · {models} unpriced',
  'live.cost.tooltip': "An estimate, per model id, from the price table bundled with the extension ({table}), with the $LEOPOLD_PRICES " +
    ("and .leopold/prices.json overrides; 1-hour cache writes at their own price. leopold watch's dashboard prices by model family with " +
      ("one cache-write rate, so its figure can differ. It is never a limit: Leopold's governor is durable progress (checked plan " +
        "items), not a cost counter, and subscription billing does not follow these prices.")),
  'live.cost.tooltip.unpriced': '\nNot priced (the table has no price for them; not counted in the estimate): {models}. Add them to ' +
    '.leopold/prices.json, or update the extension when its table knows them.',
  'live.meters': 'Meters',
  'live.meter.tooltip': '{label}: {value} ({pct}%)',
  'live.meter.label.context': 'context',
  'live.meter.label.iterations': 'iterations',
  'live.meter.label.subagents': 'subagents',
  'live.meter.label.forks': 'forks',
  'live.meter.label.failures': 'failures',
  'live.meter.label.decisions': 'decisions',
  'live.meter.label.fallback': 'fallback',
  'live.meter.label.decide p50': 'decide p50',
  'live.subagent.desc': '{type} · {when}',
  'live.subagent.running': 'running',
  'live.subagent.stopped': 'stopped · {size}',
  'live.verify': 'Verification',
  'live.verify.stale.one': '{count} edit since the last verification — ticking an item would be denied',
  'live.verify.stale.other': '{count} edits since the last verification — ticking an item would be denied',
  'live.verify.staleNoCount': 'edited since the last verification — ticking an item would be denied',
  'live.verify.fresh': 'verified after the last edit',
  'live.verify.undeclared': 'no verification commands in GUARDRAILS.md (the done gate admits every tick)',
  'live.verify.tooltip': 'verify_receipts: {receipts}\nlast_verify_at: {verify}\nlast_edit_at: {edit}\nLeopold refuses a claim of done ' +
    '(done_denied) while nothing verified the work since its last edit.',
  'live.awaiting': 'Leopold needs you',
  'live.awaiting.desc': 'item {index}: {text}',
  'live.awaiting.ticked': 'ticked: resume the run',
  'live.awaiting.tooltip': 'The run stopped at an @human item (awaiting_human): {text}\nLeopold has no answer channel: do what the item ' +
    ('asks, tick it [x] in .leopold/PLAN.md, then re-run. Re-running after awaiting_human resets the run\'s iteration and window ' +
      'budgets.\nClick: open PLAN.md at the item.'),
  'live.resume': 'Resume the run',
  'live.resume.tooltip': 'The item is ticked: resume with /leopold-run (re-running resets the iteration and window budgets).',
  'live.apiError': 'API error',
  'live.apiError.desc': '{type}{retry}{hint}',
  'live.apiError.hint': ' — {hint}',
  'live.apiError.retryable': ' · retryable',
  'live.apiError.final': ' · not retryable',
  'live.apiError.noHint': 'state.json holds no hint',
  'live.timeline.chart': 'Tokens and estimated cost per window',
  'live.timeline.chartEmpty': 'No transcript of this run\'s windows was found: no tokens or cost to show.',
  'live.timeline.chartNote': 'Estimated per model from the bundled price table ({table}); never a limit.',
  'live.timeline.window': '{tokens} tokens · ≈ ${usd} · {size}',
  'live.timeline.window.missing': 'transcript not found',
  'live.timeline.context': 'context {gauge} ({pct}%)',
  'live.timeline.tool': 'tool call: {tool}',
  'live.timeline.text': 'assistant: {text}',
  'live.timeline.idle': 'last transcript write at {time}',
  'live.timeline.turns': '{n} turns in this window · {harness}',
  'live.timeline.run': 'run: {tokens} tokens · ≈ ${usd} (estimate)',
} as const;

export const LIVE_PT_BR: Record<keyof typeof LIVE_EN, string> = {
  'live.context': 'Contexto',
  'live.context.desc': '{gauge} · {pct}%{band}',
  'live.context.band.checkpoint': ' · faixa de checkpoint',
  'live.context.band.roll': ' · rolagem',
  'live.context.off': '{size} · max_context_mb 0 (sem rolagem)',
  'live.context.unknown': 'transcrição desconhecida',
  'live.context.missing': 'transcrição não encontrada',
  'live.context.notRegular': 'a transcrição é {kind}; não foi lida',
  'live.context.refused': 'transcrição não lida: fora de onde as transcrições ficam',
  'live.context.refused.tooltip': 'O state.json nomeia {path}, que não está onde o Claude Code ou o Codex guardam transcrições (as ' +
    'pastas projects/ e sessions/) nem é um arquivo do projeto fora de .leopold/: não é lido.',
  'live.context.tooltip': 'A transcrição da janela em execução, medida como o Stop hook do Leopold a mede: o tamanho do arquivo ({bytes} ' +
    ('bytes) contra max_context_mb {max} MiB. Em 80 % cada turno recebe a instrução de checkpoint (a faixa de checkpoint); em 100 % a ' +
      'janela rola.\n{path} ({source})'),
  'live.context.unknown.tooltip': 'O state.json ainda não nomeia nenhuma transcrição (nem owner.transcript_path nem transcript_path): o ' +
    'tamanho da janela de contexto não é conhecido, e não é adivinhado.',
  'live.context.missing.tooltip': 'O state.json nomeia {path} ({source}), e não há arquivo legível ali.',
  'live.live': 'Ao vivo',
  'live.live.desc.idle': 'última escrita {age}',
  'live.live.tooltip': 'O que o agente está fazendo agora, lido da transcrição enquanto ela cresce (só os bytes acrescentados). O texto ' +
    'da transcrição aparece como texto simples.\nClique: abre a transcrição no fim (somente leitura).',
  'live.tool': 'Chamada de ferramenta',
  'live.tool.running': 'em execução',
  'live.tool.none': 'nenhuma ainda',
  'live.text': 'Assistente',
  'live.text.none': 'nenhum texto ainda',
  'live.idle': 'Última escrita',
  'live.turns': 'Turnos nesta janela',
  'live.turns.tooltip': 'Mensagens distintas do assistente na janela em execução (o Claude Code escreve uma linha por bloco de conteúdo; ' +
    'cada mensagem conta uma vez). Codex: turnos.',
  'live.harness': 'Harness',
  'live.harness.unknown': 'nem uma sessão do Claude Code nem um rollout do Codex',
  'live.tokens.window': 'Tokens (janela {n})',
  'live.tokens.run': 'Tokens (run)',
  'live.tokens.desc': 'entrada {input} · saída {output} · escrita em cache {cacheWrite} · leitura de cache {cacheRead}',
  'live.tokens.counting': ' · contando…',
  'live.tokens.tooltip': 'Entrada {input}, saída {output}, escrita em cache {cacheWrite}, leitura de cache {cacheRead} ' +
    ('tokens.\nPrincipal: {main} · subagentes: {sub} ({files} transcrições de subagentes).\nContados uma vez por mensagem (por ' +
      'message.id e requestId), não uma vez por linha como o leopold watch conta.'),
  'live.tokens.run.tooltip': 'Todas as janelas desta run cuja transcrição de sessão foi encontrada (as sessões que o journal e o ' +
    ('state.json nomeiam, e as sessões do harness neste projeto escritas durante a run), com as transcrições de subagentes ao ' +
      'lado.\n{windows}'),
  'live.tokens.unknown': 'desconhecido — nenhuma transcrição encontrada',
  'live.tokens.unknown.tooltip': 'Nenhuma transcrição desta janela foi encontrada: seus tokens são desconhecidos, não zero.',
  'live.tokens.window.line': 'janela {n}: {tokens} tokens · ≈ ${usd}{missing}',
  'live.tokens.window.missing': ' · transcrição não encontrada',
  'live.tokens.unavailable': 'indisponível — {why}',
  'live.tokens.unavailable.tooltip': 'A transcrição foi encontrada, mas não registra contagens de tokens: seus tokens e custo estão ' +
    'indisponíveis, não são zero.',
  'live.tokens.why.old-format': 'um rollout do Codex no formato antigo não registra contagens de tokens',
  'live.tokens.why.no-token-records': 'a transcrição ainda não tem contagem de tokens (nenhum turno contado)',
  'live.tokens.window.unavailable': ' · indisponível: {why}',
  'live.totals': 'Totais',
  'live.totals.desc': '{tokens} tokens · ≈ ${usd}',
  'live.totals.tooltip': 'A run não está mais ativa: seus números, cada janela contada uma vez quando ela parou (nada é lido depois).',
  'live.totals.costRun': '≈ ${run} run',
  'live.cost': 'Custo (estimativa)',
  'live.cost.desc': '≈ ${usd} janela · ≈ ${run} run',
  'live.cost.unknown': 'desconhecido',
  'live.cost.unknownPrice': 'preço desconhecido',
  'live.cost.unpriced': ' · {models} sem preço',
  'live.cost.tooltip': 'Uma estimativa, por id de modelo, pela tabela de preços que vem com a extensão ({table}), com as substituições ' +
    ('de $LEOPOLD_PRICES e .leopold/prices.json; escritas em cache de 1 hora pelo seu próprio preço. O painel do leopold watch precifica ' +
      ('por família de modelo com uma só tarifa de escrita em cache, então o número dele pode diferir. Nunca é um limite: o governador ' +
        ('do Leopold é o progresso durável (itens do plano fechados), não um contador de custo, e a cobrança por assinatura não segue ' +
          'estes preços.'))),
  'live.cost.tooltip.unpriced': '\nSem preço (a tabela não tem preço para eles; fora da estimativa): {models}. Acrescente-os ao ' +
    '.leopold/prices.json, ou atualize a extensão quando a tabela dela os conhecer.',
  'live.meters': 'Medidores',
  'live.meter.tooltip': '{label}: {value} ({pct}%)',
  'live.meter.label.context': 'contexto',
  'live.meter.label.iterations': 'iterações',
  'live.meter.label.subagents': 'subagentes',
  'live.meter.label.forks': 'forks',
  'live.meter.label.failures': 'falhas',
  'live.meter.label.decisions': 'decisões',
  'live.meter.label.fallback': 'fallback',
  'live.meter.label.decide p50': 'decisão p50',
  'live.subagent.desc': '{type} · {when}',
  'live.subagent.running': 'em execução',
  'live.subagent.stopped': 'parado · {size}',
  'live.verify': 'Verificação',
  'live.verify.stale.one': '{count} edição desde a última verificação — marcar um item seria negado',
  'live.verify.stale.other': '{count} edições desde a última verificação — marcar um item seria negado',
  'live.verify.staleNoCount': 'editado desde a última verificação — marcar um item seria negado',
  'live.verify.fresh': 'verificado depois da última edição',
  'live.verify.undeclared': 'nenhum comando de verificação no GUARDRAILS.md (o done gate admite toda marcação)',
  'live.verify.tooltip': 'verify_receipts: {receipts}\nlast_verify_at: {verify}\nlast_edit_at: {edit}\nO Leopold recusa uma declaração ' +
    'de concluído (done_denied) enquanto nada verificou o trabalho desde a última edição.',
  'live.awaiting': 'O Leopold precisa de você',
  'live.awaiting.desc': 'item {index}: {text}',
  'live.awaiting.ticked': 'marcado: retome a run',
  'live.awaiting.tooltip': 'A run parou num item @human (awaiting_human): {text}\nO Leopold não tem canal de resposta: faça o que o item ' +
    ('pede, marque-o [x] em .leopold/PLAN.md e rode de novo. Rodar de novo depois de awaiting_human zera os orçamentos de iterações e de ' +
      'janelas da run.\nClique: abre o PLAN.md no item.'),
  'live.resume': 'Retomar a run',
  'live.resume.tooltip': 'O item está marcado: retome com /leopold-run (rodar de novo zera os orçamentos de iterações e de janelas).',
  'live.apiError': 'Erro de API',
  'live.apiError.desc': '{type}{retry}{hint}',
  'live.apiError.hint': ' — {hint}',
  'live.apiError.retryable': ' · recuperável',
  'live.apiError.final': ' · não recuperável',
  'live.apiError.noHint': 'o state.json não traz dica',
  'live.timeline.chart': 'Tokens e custo estimado por janela',
  'live.timeline.chartEmpty': 'Nenhuma transcrição das janelas desta execução foi encontrada: sem tokens nem custo para mostrar.',
  'live.timeline.chartNote': 'Estimado por modelo pela tabela de preços que vem com a extensão ({table}); nunca é um limite.',
  'live.timeline.window': '{tokens} tokens · ≈ ${usd} · {size}',
  'live.timeline.window.missing': 'transcrição não encontrada',
  'live.timeline.context': 'contexto {gauge} ({pct}%)',
  'live.timeline.tool': 'chamada de ferramenta: {tool}',
  'live.timeline.text': 'assistente: {text}',
  'live.timeline.idle': 'última escrita na transcrição às {time}',
  'live.timeline.turns': '{n} turnos nesta janela · {harness}',
  'live.timeline.run': 'run: {tokens} tokens · ≈ ${usd} (estimativa)',
};

export type MessageKey = keyof typeof LIVE_EN;
export type CountedKey = CountedOf<MessageKey>;
export const { msg, msgN } = messages(LIVE_EN, LIVE_PT_BR);

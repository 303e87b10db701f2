// The checkpoint's sentences: its findings and quick-fix titles (core/checkpoint/rules/*.ts), the format report, the
// verdicts, the CodeLens and hover texts, the command line's refusals. Owned by core/checkpoint/ and gathered with the
// other catalogs by core/messages.ts (for the server, the CLI and the VS Code layer).
// Contract identifiers (section names, event names, stop reasons, state.json fields, file names) stay verbatim in both
// languages.

import { messages, type CountedOf } from '../l10n';

export const CHECKPOINT_EN = {
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
};

export const CHECKPOINT_PT_BR: Record<keyof typeof CHECKPOINT_EN, string> = {
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
};

export type MessageKey = keyof typeof CHECKPOINT_EN;
export type CountedKey = CountedOf<MessageKey>;
export const { msg, msgN } = messages(CHECKPOINT_EN, CHECKPOINT_PT_BR);

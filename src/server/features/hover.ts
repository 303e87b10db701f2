// Hover: what the title and each heading mean in the contract. A heading's own text is the document's: shown as a
// code span, never as markup.
import { MarkupKind, type Range } from 'vscode-languageserver/node';
import {
  SECTIONS, TITLE, headingAt, isSection, kindHelp, sectionHelp, sectionKind, type SectionName,
} from '../../core/checkpoint';
import { mdCode } from '../../core/inert';
import { msg } from '../../core/messages';
import type { Feature, ServerContext } from '../context';
import { coreLine, toPosition } from '../convert';

export function registerHover(ctx: ServerContext): Feature {
  const { connection, documents } = ctx;

  connection.onHover(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return null;
    const v = await ctx.validation(doc);
    const p = v.parsed;
    const locale = ctx.locale;
    const line = coreLine(doc, p, params.position);
    if (p.titles.length && (p.titles[0] === line || (line > p.titles[0] && p.titles.includes(line)))) {
      return {
        contents: { kind: MarkupKind.Markdown, value: p.titles[0] === line
          ? msg(locale, 'server.hover.title', { title: TITLE })
          : msg(locale, 'server.hover.secondTitle') },
      };
    }
    const h = headingAt(p, line);
    if (!h) return null;
    const range: Range = { start: toPosition(doc, p, line, h.hashCol), end: toPosition(doc, p, line, h.nameEnd) };
    if (isSection(h.name)) {
      const s = h.name as SectionName;
      const dup = h.role === 'duplicate' ? `\n\n${msg(locale, 'server.hover.duplicate')}` : '';
      return {
        range,
        contents: { kind: MarkupKind.Markdown,
          value: `${msg(locale, 'server.hover.section', { name: s, index: SECTIONS.indexOf(s) + 1 })}\n\n${sectionHelp(s, locale)}\n\n` +
            `${kindHelp(sectionKind(s), locale)}${dup}` },
      };
    }
    // The heading's own text is the document's: a code span, never markup (no link, image, HTML or command).
    return {
      range,
      contents: { kind: MarkupKind.Markdown,
        value: `${msg(locale, h.role === 'brief' ? 'server.hover.notSectionBrief' : 'server.hover.notSection',
          { name: mdCode(`## ${h.name}`) })}\n\n` +
          msg(locale, 'server.hover.contract', { list: SECTIONS.map((s) => `\`${s}\``).join(', ') }) },
    };
  });

  return { capabilities: () => ({ hoverProvider: true }) };
}

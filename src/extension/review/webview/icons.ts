/*! Codicons (https://github.com/microsoft/vscode-codicons) © Microsoft Corporation, CC BY 4.0
 * (https://creativecommons.org/licenses/by/4.0/): the icons below, unchanged. */
// The codicons the review draws: only these are bundled (the whole font is ~126 KB), each built as an inline SVG with
// DOM APIs from its own path data (trusted, from the package), in the current text colour (`fill: currentColor`).
import copy from '@vscode/codicons/src/icons/copy.svg';
import save from '@vscode/codicons/src/icons/save.svg';
import diffMultiple from '@vscode/codicons/src/icons/diff-multiple.svg';
import diffAdded from '@vscode/codicons/src/icons/diff-added.svg';
import diffModified from '@vscode/codicons/src/icons/diff-modified.svg';
import diffRemoved from '@vscode/codicons/src/icons/diff-removed.svg';
import question from '@vscode/codicons/src/icons/question.svg';
import pass from '@vscode/codicons/src/icons/pass.svg';
import error from '@vscode/codicons/src/icons/error.svg';
import terminal from '@vscode/codicons/src/icons/terminal.svg';
import arrowRight from '@vscode/codicons/src/icons/arrow-right.svg';
import bell from '@vscode/codicons/src/icons/bell.svg';
import creditCard from '@vscode/codicons/src/icons/credit-card.svg';
import diff from '@vscode/codicons/src/icons/diff.svg';
import warning from '@vscode/codicons/src/icons/warning.svg';

const ICONS = {
  copy, save, 'diff-multiple': diffMultiple, 'diff-added': diffAdded, 'diff-modified': diffModified, 'diff-removed': diffRemoved,
  question, pass, error, terminal, 'arrow-right': arrowRight, bell, 'credit-card': creditCard, diff, warning,
};
export type IconName = keyof typeof ICONS;

const NS = 'http://www.w3.org/2000/svg';
const PATH = /<path\b([^>]*?)\/?>/g;
const ATTR = /\b(d|fill-rule|clip-rule)="([^"]*)"/g;

/** A codicon as an `<svg class="codicon codicon-NAME">` of its paths (attributes d, fill-rule, clip-rule only). */
export function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', `codicon codicon-${name}`);
  for (const [, attrs] of ICONS[name].matchAll(PATH)) {
    const p = document.createElementNS(NS, 'path');
    for (const [, k, v] of attrs.matchAll(ATTR)) p.setAttribute(k, v);
    svg.appendChild(p);
  }
  return svg;
}

// One node of the Leopold Runs tree as plain data (no `vscode`): what the node builders (runsTreeNodes.ts, the live
// and relaunch nodes) produce and the view (runsTree.ts) maps to TreeItems.
import type * as vscode from 'vscode';
import type { LeopoldProject } from './projects';

export interface OpenTarget {
  path: string;
  /** 0-based line to reveal. */
  line?: number;
  /** Byte offset of the line (journal events whose line number is not known). */
  offset?: number;
}

export interface NodeData {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon?: { id: string; color?: string };
  collapsible: 'none' | 'collapsed' | 'expanded';
  contextValue?: string;
  open?: OpenTarget;
  children?: NodeData[];
  /** Children read on demand (the files of an archived run). */
  lazyRun?: string;
  /** A command the click runs instead of opening `open` (the live nodes: open the transcript, resume). */
  command?: { id: string; args?: unknown[] };
  /** The file or folder the node stands for (its `resourceUri`: file icons, Explorer decorations, copy/reveal). */
  resource?: string;
  /**
   * A rich hover instead of `tooltip` (the run and project rows): facts as plain lines (untrusted: the view escapes
   * them) and links to this extension's own commands, each with the project root as its argument.
   */
  hover?: { title: string; lines: string[]; links: { label: string; icon: string; command: string; args: unknown[] }[] };
}

/**
 * A feature's part of a project's node (the driver run's nodes): it returns the node with its own children added, from
 * what the feature has read. Decorators run on every rendering, in the order they were added.
 */
export type NodeDecorator = (project: LeopoldProject, node: NodeData) => NodeData;

/** What another feature may do with the Runs tree (runs/runsTree.ts `RunsTreeProvider` implements it). */
export interface RunsTreeNodes {
  /** Adds a feature's nodes to every project's rendering (see NodeDecorator). */
  addDecorator(d: NodeDecorator): vscode.Disposable;
  /** Renders a project again (a decorator's feature changed what it shows). */
  rerender(root: string): void;
  /** The node data behind a node's id (a tree command gets the node's handle as its argument), if it is shown. */
  nodeData(id: string): NodeData | undefined;
}

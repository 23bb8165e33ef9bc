import type { CatalogueProblem } from './types.js';

/** Every problem found in one catalogue file, in the order found, each with its path. */
export class ProblemList {
  readonly items: CatalogueProblem[] = [];

  add(path: string, message: string): void {
    this.items.push({ path, message });
  }

  get size(): number {
    return this.items.length;
  }
}

/** `models[3]` style path of a list item. */
export function itemPath(listPath: string, index: number): string {
  return `${listPath}[${index}]`;
}

/** `models[3].name` style path of a field; the root has the empty path. */
export function fieldPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** One problem as the command line prints it. */
export function formatProblem(problem: CatalogueProblem): string {
  return `${problem.path === '' ? '(root)' : problem.path}: ${problem.message}`;
}

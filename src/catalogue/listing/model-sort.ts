import type { ListedModel } from './listed-model.js';
import type { ModelSort } from './model-query.js';

type Order = (a: ListedModel, b: ListedModel) => number;

const byId: Order = (a, b) => (a.model.id < b.model.id ? -1 : a.model.id > b.model.id ? 1 : 0);

/** Summary prompt price; an undeclared price sorts last whichever way the prices run. */
function byPrice(direction: 1 | -1): Order {
  return (a, b) => {
    const left = a.summaryPromptUnits;
    const right = b.summaryPromptUnits;
    if (left === undefined || right === undefined) return left === right ? 0 : left === undefined ? 1 : -1;
    return left === right ? 0 : (left < right ? -1 : 1) * direction;
  };
}

const ORDERS: Readonly<Record<ModelSort, Order>> = {
  newest: (a, b) => b.model.created - a.model.created,
  oldest: (a, b) => a.model.created - b.model.created,
  'price-low-to-high': byPrice(1),
  'price-high-to-low': byPrice(-1),
  'context-high-to-low': (a, b) => (b.summaryContext ?? 0) - (a.summaryContext ?? 0),
};

/** The models in the asked order; ties by id. `models` arrive newest first, which `newest` keeps. */
export function sortModels(models: readonly ListedModel[], sort: ModelSort): readonly ListedModel[] {
  if (sort === 'newest') return models;
  const order = ORDERS[sort];
  return [...models].sort((a, b) => order(a, b) || byId(a, b));
}

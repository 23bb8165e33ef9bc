import { Type, type TSchema } from '@sinclair/typebox';
import { ModelSummarySchema } from '../model-summary-schema.js';
import { MAX_LIMIT, MODEL_SORTS, SORT_ALIASES, UNSUPPORTED_FILTERS } from './model-query.js';

/** A model list reply (listing-snapshot.ts `listBody`): the page, the filtered count and the next page. */
export const ModelListSchema = Type.Object({
  data: Type.Array(ModelSummarySchema),
  unsupported_filters: Type.Optional(Type.Array(Type.String(), { description: 'Accepted-but-not-computed filters sent; `data` is then empty' })),
  total_count: Type.Integer({ minimum: 0, description: 'Models matching the filters, before `limit` and `offset`' }),
  links: Type.Object({ next: Type.Union([Type.String(), Type.Null()], { description: 'Path of the next page; null on the last' }) }),
});

const commaList = (description: string) => Type.String({ description: `Comma list: ${description}` });
const usdPerMillion = (description: string) => Type.String({ pattern: '^\\d+(\\.\\d+)?$', description: `${description}, USD per million tokens, exact decimal` });

const page = {
  limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: 'Page size, applied after the filters; without it the whole list' }),
  offset: Type.Integer({ minimum: 0, description: 'Models skipped, after the filters' }),
};

/** Query parameters of the unfiltered lists (`GET /models/user`). */
export const PageQuerySchema = Type.Object(page);

const notComputed = Object.fromEntries(UNSUPPORTED_FILTERS.map((name) => [name, Type.String({ description: 'Accepted but not computed: the reply is `data: []` naming it in `unsupported_filters`' })]));

/**
 * Query parameters of `GET /models` (model-query.ts reads them; an unknown or malformed one is a 400
 * naming it). Every present filter narrows the list (AND).
 */
export const ModelQuerySchema = Type.Object({
  family: Type.String({ description: 'Family id' }),
  q: Type.String({ description: 'Case-insensitive substring of id or name' }),
  supported_parameters: commaList('each declared by at least one live endpoint'),
  input_modalities: commaList('all required'),
  output_modalities: commaList('all required'),
  context: Type.Integer({ minimum: 0, description: 'Minimum context length' }),
  min_price: usdPerMillion('Lowest prompt price of some live endpoint'),
  max_price: usdPerMillion('Highest prompt price of some live endpoint'),
  min_output_price: usdPerMillion('Lowest completion price of some live endpoint'),
  max_output_price: usdPerMillion('Highest completion price of some live endpoint'),
  providers: commaList('provider slugs'),
  model_authors: commaList('weights creators'),
  zdr: Type.Boolean({ description: 'true keeps models with an endpoint the zero-retention rule keeps; false filters nothing' }),
  region: commaList('country codes or datacenter regions (`eu`)'),
  min_age_days: Type.Integer({ minimum: 0, description: 'Age from release date' }),
  max_age_days: Type.Integer({ minimum: 0 }),
  min_tool_success_rate: Type.Number({ minimum: 0, maximum: 100, description: 'On `tool_call_success_1d`; an endpoint without the figure matches neither bound' }),
  max_tool_success_rate: Type.Number({ minimum: 0, maximum: 100 }),
  sort: Type.Union([...MODEL_SORTS, ...Object.keys(SORT_ALIASES)].map((sort) => Type.Literal(sort)), { description: 'Default `newest`; `pricing-…` spell the price orders too' }),
  ...page,
  ...notComputed,
} satisfies Record<string, TSchema>);

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpointListing } from '../../catalogue/listing/endpoint-listing.js';
import type { ListedModel } from '../../catalogue/listing/listed-model.js';
import { listingOf } from '../../catalogue/listing/listing-snapshot.js';
import { modelListBody } from '../../catalogue/listing/model-list.js';
import { asksWholeList, readModelQuery, refuseQuery } from '../../catalogue/listing/model-query.js';
import { GatewayError } from '../../core/errors.js';
import { unknownModel } from '../../core/planner/model-resolution.js';
import { sendCachedJson } from '../cached-json.js';
import type { Services } from '../services.js';

type Query = Record<string, unknown>;
type ModelParams = { author: string; slug: string };

/**
 * The public catalogue reads of models, answered from the listing rendered once per catalogue
 * snapshot (the whole list also kept as bytes, and gzipped for callers that take it): `GET /models`
 * (filters, sort, page), `/models/count`, one model by `author/slug` (also under `/model/`, and as
 * the one percent-encoded segment client SDKs send), and its endpoints.
 */
export function registerModelRoutes(app: FastifyInstance, services: Services): void {
  app.get('/models', { schema: { summary: 'Served models, filtered, sorted and paged' } }, async (request, reply) => {
    const query = readModelQuery(request.query as Query);
    const listing = listingOf(services.catalogue.current());
    if (asksWholeList(query)) return sendCachedJson(request, reply, listing, listing.wholeList);
    const body = modelListBody(listing, query, { now: Date.now(), figures: services.state }, {
      path: request.url.split('?')[0] ?? '/models',
      query: request.query as Query,
    });
    return sendJson(reply, body);
  });
  app.get('/models/count', { schema: { summary: 'How many models are served' } }, async (request) => {
    refuseQuery(request.query as Query);
    return { data: { count: listingOf(services.catalogue.current()).models.length } };
  });
  const oneModel = async (request: FastifyRequest) => ({ data: servedModel(services, request.params as ModelParams, request.query as Query).summary });
  app.get('/models/:author/:slug', { schema: { summary: 'One served model' } }, oneModel);
  app.get('/model/:author/:slug', { schema: { summary: 'One served model' } }, oneModel);
  app.get('/models/:id', { schema: { summary: 'One served model, named in one percent-encoded segment' } }, async (request) => {
    const { id } = request.params as { id: string };
    const [author = '', ...rest] = id.split('/');
    const listed = servedModel(services, { author, slug: rest.join('/') }, request.query as Query);
    return { id: listed.model.id, object: 'model', owned_by: listed.model.author, ...listed.summary };
  });
  app.get('/models/:author/:slug/endpoints', { schema: { summary: 'The live endpoints of a served model' } }, async (request) => {
    const listed = servedModel(services, request.params as ModelParams, request.query as Query);
    return { data: endpointListing(listed, services.state) };
  });
}

/**
 * The served model named `author/slug`. 404 for a model without a live endpoint, and for an unknown
 * one, which names the served variants when the id is a family's (as inference does).
 */
function servedModel(services: Services, params: ModelParams, query: Query): ListedModel {
  refuseQuery(query);
  const id = `${params.author}/${params.slug}`;
  const catalogue = services.catalogue.current();
  const listed = listingOf(catalogue).byId.get(id);
  if (listed) return listed;
  if (catalogue.models.has(id)) throw new GatewayError('not_found', `Model ${id} is not served (no live endpoint)`, { metadata: { model: id } });
  throw unknownModel(catalogue, id);
}

/** A reply already rendered as JSON text. */
export function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}

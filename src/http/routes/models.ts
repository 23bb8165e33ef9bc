import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EndpointListingSchema } from '../../catalogue/listing/endpoint-entry-schema.js';
import { endpointListing } from '../../catalogue/listing/endpoint-listing.js';
import { summaryOf, type ListedModel } from '../../catalogue/listing/listed-model.js';
import { listingOf } from '../../catalogue/listing/listing-snapshot.js';
import { modelListBody } from '../../catalogue/listing/model-list.js';
import { ModelListSchema, ModelQuerySchema } from '../../catalogue/listing/model-list-schema.js';
import { asksWholeList, readModelQuery, refuseQuery, type ModelQuery } from '../../catalogue/listing/model-query.js';
import { ModelSummarySchema, SdkModelSchema } from '../../catalogue/model-summary-schema.js';
import { GatewayError } from '../../core/errors.js';
import { unknownModel } from '../../core/planner/model-resolution.js';
import { sendPreparedJson } from '../cached-json.js';
import { dataReply, jsonReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import type { Services } from '../services.js';

type Query = Record<string, unknown>;
type ModelParams = { author: string; slug: string };

const ModelParamsSchema = Type.Object({
  author: Type.String({ description: 'The model id\'s first segment (the weights creator)' }),
  slug: Type.String({ description: 'The rest of the model id' }),
});

/** `/models/:author` shares its node with `/models/:author/:slug`, so the whole id arrives under `author`. */
const OneSegmentParamsSchema = Type.Object({
  author: Type.String({ description: 'The whole model id `<author>/<slug>` in one percent-encoded segment (`acme%2Fchat`), as client SDKs send it' }),
});

const oneModelDoc = (operationId: string) => ({
  operationId,
  summary: 'One served model',
  tags: [TAGS.models],
  answers: { success: { 200: dataReply(ModelSummarySchema, 'The model summary') }, errors: [400, 404], params: ModelParamsSchema },
} as const);

/**
 * The public catalogue reads of models, answered from the listing rendered once per catalogue
 * snapshot (the whole list also kept as bytes, and gzipped for callers that take it): `GET /models`
 * (filters, sort, page), `/models/count`, one model by `author/slug` (also under `/model/`, and as
 * the one percent-encoded segment client SDKs send), and its endpoints.
 */
export function registerModelRoutes(app: FastifyInstance, services: Services): void {
  app.get('/models', {
    schema: {
      operationId: 'listModels',
      summary: 'Served models, filtered, sorted and paged',
      tags: [TAGS.models],
      answers: { success: { 200: jsonReply(ModelListSchema, 'The served models, newest first unless sorted') }, errors: [400], query: ModelQuerySchema },
    },
  }, async (request, reply) => {
    const query = readModelQuery(request.query as Query);
    if (asksWholeList(query)) return sendPreparedJson(request, reply, listingOf(services.catalogue.current()).wholeList);
    return sendModelList(services, query, request, reply);
  });
  app.get('/models/count', {
    schema: {
      operationId: 'countModels',
      summary: 'How many models are served',
      tags: [TAGS.models],
      answers: { success: { 200: dataReply(Type.Object({ count: Type.Integer({ minimum: 0 }) }), 'The unfiltered count') }, errors: [400] },
    },
  }, async (request) => {
    refuseQuery(request.query as Query);
    return { data: { count: listingOf(services.catalogue.current()).models.length } };
  });
  const oneModel = async (request: FastifyRequest) => ({ data: summaryOf(servedModel(services, modelId(request.params as ModelParams), request.query as Query)) });
  app.get('/models/:author/:slug', { schema: oneModelDoc('getModel') }, oneModel);
  app.get('/model/:author/:slug', { schema: oneModelDoc('getModelSingular') }, oneModel);
  app.get('/models/:author', {
    schema: {
      operationId: 'retrieveModel',
      summary: 'One served model, named in one percent-encoded segment, as a bare object',
      tags: [TAGS.models],
      answers: { success: { 200: jsonReply(SdkModelSchema, 'The model summary with `object` and `owned_by`') }, errors: [400, 404], params: OneSegmentParamsSchema },
    },
  }, async (request) => {
    // the whole id, `author/slug`, arrives percent-decoded in the one segment
    const { author: id } = request.params as { author: string };
    const listed = servedModel(services, id, request.query as Query);
    return { id: listed.model.id, object: 'model', owned_by: listed.model.author, ...summaryOf(listed) };
  });
  app.get('/models/:author/:slug/endpoints', {
    schema: {
      operationId: 'listModelEndpoints',
      summary: 'The live endpoints of a served model, with the figures measured on this service\'s traffic',
      tags: [TAGS.models],
      answers: { success: { 200: dataReply(EndpointListingSchema, 'The model and its live endpoints') }, errors: [400, 404], params: ModelParamsSchema },
    },
  }, async (request) => {
    const listed = servedModel(services, modelId(request.params as ModelParams), request.query as Query);
    return { data: endpointListing(listed, services.state) };
  });
}

function modelId(params: ModelParams): string {
  return `${params.author}/${params.slug}`;
}

/**
 * The served model named `id`. 404 for a model without a live endpoint, and for an unknown one,
 * which names the served variants when the id is a family's (as inference does).
 */
function servedModel(services: Services, id: string, query: Query): ListedModel {
  refuseQuery(query);
  const catalogue = services.catalogue.current();
  const listed = listingOf(catalogue).byId.get(id);
  if (listed) return listed;
  if (catalogue.models.has(id)) throw new GatewayError('not_found', `Model ${id} is not served (no live endpoint)`, { metadata: { model: id } });
  throw unknownModel(catalogue, id);
}

/**
 * One page of the model list `query` asks for, rendered as JSON text; its `next` link repeats the
 * path and parameters it was asked with (`/models` or `/models/user`).
 */
export function sendModelList(services: Pick<Services, 'catalogue' | 'state'>, query: ModelQuery, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const body = modelListBody(listingOf(services.catalogue.current()), query, { now: Date.now(), figures: services.state }, {
    path: request.url.split('?')[0] ?? request.url,
    query: request.query as Query,
  });
  return reply.type('application/json; charset=utf-8').send(body);
}

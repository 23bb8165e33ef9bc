import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { familyRecords, providerRecords, publicStats } from '../../catalogue/listing/directory-records.js';
import { FamilyRecordSchema, ProviderRecordSchema, PublicStatsSchema } from '../../catalogue/listing/directory-schemas.js';
import { listingOf } from '../../catalogue/listing/listing-snapshot.js';
import { refuseQuery } from '../../catalogue/listing/model-query.js';
import { dataReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import type { Services } from '../services.js';

/** `GET /providers`, `GET /families`, `GET /stats/public`: the public directory of the catalogue. */
export function registerCatalogueDirectoryRoutes(app: FastifyInstance, services: Services): void {
  app.get('/providers', {
    schema: {
      operationId: 'listProviders',
      summary: 'Providers of the catalogue',
      tags: [TAGS.models],
      answers: { success: { 200: dataReply(Type.Array(ProviderRecordSchema), 'Every declared provider, by slug') }, errors: [400] },
    },
  }, async (request) => {
    refuseQuery(request.query as Record<string, unknown>);
    const catalogue = services.catalogue.current();
    return { data: providerRecords(catalogue, listingOf(catalogue)) };
  });
  app.get('/families', {
    schema: {
      operationId: 'listFamilies',
      summary: 'Model families with served models',
      tags: [TAGS.models],
      answers: { success: { 200: dataReply(Type.Array(FamilyRecordSchema), 'Each family with a served model, by id') }, errors: [400] },
    },
  }, async (request) => {
    refuseQuery(request.query as Record<string, unknown>);
    return { data: familyRecords(listingOf(services.catalogue.current())) };
  });
  app.get('/stats/public', {
    schema: {
      operationId: 'getPublicStats',
      summary: 'What the catalogue serves right now',
      tags: [TAGS.models],
      answers: { success: { 200: dataReply(PublicStatsSchema, 'Counts of what is served, and when the catalogue was loaded') }, errors: [400] },
    },
  }, async (request) => {
    refuseQuery(request.query as Record<string, unknown>);
    const catalogue = services.catalogue.current();
    return { data: publicStats(listingOf(catalogue), catalogue.loadedAt, (id) => services.state.isHealthy(id)) };
  });
}

import type { FastifyInstance } from 'fastify';
import { familyRecords, providerRecords, publicStats } from '../../catalogue/listing/directory-records.js';
import { listingOf } from '../../catalogue/listing/listing-snapshot.js';
import { refuseQuery } from '../../catalogue/listing/model-query.js';
import type { Services } from '../services.js';

/** `GET /providers`, `GET /families`, `GET /stats/public`: the public directory of the catalogue. */
export function registerCatalogueDirectoryRoutes(app: FastifyInstance, services: Services): void {
  app.get('/providers', { schema: { summary: 'Providers of the catalogue' } }, async (request) => {
    refuseQuery(request.query as Record<string, unknown>);
    const catalogue = services.catalogue.current();
    return { data: providerRecords(catalogue, listingOf(catalogue)) };
  });
  app.get('/families', { schema: { summary: 'Model families with served models' } }, async (request) => {
    refuseQuery(request.query as Record<string, unknown>);
    return { data: familyRecords(listingOf(services.catalogue.current())) };
  });
  app.get('/stats/public', { schema: { summary: 'What the catalogue serves right now' } }, async (request) => {
    refuseQuery(request.query as Record<string, unknown>);
    const catalogue = services.catalogue.current();
    return { data: publicStats(listingOf(catalogue), catalogue.loadedAt, (id) => services.state.isHealthy(id)) };
  });
}

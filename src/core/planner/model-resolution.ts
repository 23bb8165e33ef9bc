import type { Catalogue, ModelEntry } from '../../catalogue/types.js';
import { GatewayError } from '../errors.js';
import type { ModelVariant } from './context.js';

export interface ResolvedModel {
  model: ModelEntry;
  variant: ModelVariant;
  /** The id as asked, suffix included: what the reply names. */
  askedId: string;
}

const SUFFIX = /^(.+):(free|nitro|floor)$/;

/** `author/slug:nitro` → the model and what its suffix asks of routing. */
export function splitVariant(id: string): { baseId: string; variant: ModelVariant } {
  const match = SUFFIX.exec(id);
  return match ? { baseId: match[1] ?? id, variant: match[2] as ModelVariant } : { baseId: id, variant: null };
}

/** The known models among the asked ids, in order; a 404 when none is known. */
export function resolveModels(catalogue: Catalogue, ids: readonly string[]): ResolvedModel[] {
  const resolved: ResolvedModel[] = [];
  for (const askedId of ids) {
    const { baseId, variant } = splitVariant(askedId);
    const model = catalogue.models.get(baseId);
    if (model) resolved.push({ model, variant, askedId });
  }
  if (resolved.length === 0) throw unknownModel(catalogue, ids[0] ?? '');
  return resolved;
}

/** 404; when the id names a family with no served base model, `family_variants` lists the family's served ids (rule 15). */
export function unknownModel(catalogue: Catalogue, askedId: string): GatewayError {
  const { baseId } = splitVariant(askedId);
  const slug = baseId.split('/')[1] ?? baseId;
  const family = catalogue.families.get(baseId) ?? catalogue.families.get(slug);
  const served = (family ?? []).filter((id) => catalogue.models.get(id)?.endpoints.some((endpoint) => !endpoint.disabled));
  const metadata: Record<string, unknown> = { model: askedId };
  if (served.length > 0) metadata.family_variants = served;
  const hint = served.length > 0 ? `; served variants of this family: ${served.join(', ')}` : '';
  return new GatewayError('not_found', `Model ${askedId} does not exist${hint}`, { metadata });
}

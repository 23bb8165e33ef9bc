import type { EndpointEntry } from '../../catalogue/types.js';
import { dimensionsOf, sizeFor } from '../images.js';
import type { ImageRender } from '../operation.js';
import type { EligibilityRule } from './eligibility-rule.js';

/**
 * An image-generation call goes only to endpoints whose image envelope admits what it asks: the
 * size and output format among those declared, no more pictures than `max_images` (one where the
 * envelope says nothing), and each render parameter asked (quality, background) within its
 * declared descriptor. Without an envelope an endpoint renders one picture of its own choosing.
 * Reference pictures go only where the endpoint declares image reference inputs that take them.
 */
const admitsRender: EligibilityRule = ({ endpoint, input }) => {
  const operation = input.request.operation;
  return operation?.kind === 'image' ? renderRefusal(endpoint, operation) : null;
};

function renderRefusal(endpoint: EndpointEntry, render: ImageRender): string | null {
  const envelope = endpoint.listing.imageEnvelope;
  if (render.size !== undefined && render.size !== 'auto' && !envelope?.sizes.includes(render.size)) return `does not render size ${render.size}`;
  if ((render.aspectRatio !== undefined || render.resolution !== undefined) && sizeFor(endpoint, render) === undefined) {
    const asked = [render.aspectRatio && `aspect_ratio ${render.aspectRatio}`, render.resolution && `resolution ${render.resolution}`].filter(Boolean).join(' at ');
    return `does not render ${asked}`;
  }
  if (render.outputFormat !== undefined && !envelope?.formats.includes(render.outputFormat)) return `does not render output_format ${render.outputFormat}`;
  const most = envelope?.max_images ?? 1;
  if (render.n > most) return `renders at most ${most} image${most === 1 ? '' : 's'} a request (n ${render.n})`;
  for (const [name, value] of [['quality', render.quality], ['background', render.background]] as const) {
    if (value === undefined || value === 'auto') continue;
    const descriptor = endpoint.listing.renderParameters?.image?.[name];
    if (!descriptor?.enum?.includes(value)) return `does not render ${name} ${value}`;
  }
  return referenceRefusal(endpoint, render);
}

/** Reference pictures go only where `reference_inputs.image` declares them: their count, formats and sizes. */
function referenceRefusal(endpoint: EndpointEntry, render: ImageRender): string | null {
  const { references } = render;
  if (references.length === 0) return null;
  const declared = endpoint.referenceInputs?.image;
  if (!declared) return 'does not take reference images';
  if (declared.maxCount !== null && references.length > declared.maxCount) return `takes at most ${declared.maxCount} reference image${declared.maxCount === 1 ? '' : 's'} (${references.length} sent)`;
  for (const reference of references) {
    if (reference.format !== undefined && !declared.formats.includes(reference.format)) return `does not take ${reference.format} reference images`;
    if (reference.bytes !== undefined && declared.maxBytes !== null && reference.bytes > declared.maxBytes) return `takes reference images of at most ${declared.maxBytes} bytes`;
  }
  return null;
}

/** The most pixels one picture of this call could have on `endpoint`: its size there, else the envelope's largest. */
export function largestPixels(endpoint: EndpointEntry, render: ImageRender): number {
  const size = sizeFor(endpoint, render);
  const sizes = size !== undefined ? [size] : endpoint.listing.imageEnvelope?.sizes ?? [];
  return sizes.reduce((most, candidate) => {
    const [width, height] = dimensionsOf(candidate);
    return Math.max(most, width * height);
  }, 0);
}

export const IMAGE_RULES: readonly EligibilityRule[] = [admitsRender];

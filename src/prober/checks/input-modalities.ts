import type { EndpointEntry } from '../../catalogue/types.js';
import type { Capability } from '../../core/capability-checks.js';
import { answersChat, judgeFailure, type CapabilityCheck, type Judgement, type Probe, type ProbeReply } from '../probe.js';
import { INPUT_SAMPLES, type InputSample } from './input-samples.js';

/**
 * Each declared input modality (rule 10): a turn carrying the smallest real sample of it must be
 * answered, not refused. Checked where the endpoint takes bytes (`base64`) in the sample's
 * container, as far as it declares sources and containers; an endpoint that only fetches URLs is
 * not checked, since a probe has no public URL to hand it.
 */
export const inputModalitiesCheck: CapabilityCheck = {
  name: 'input modalities',
  probes(endpoint) {
    if (!answersChat(endpoint)) return [];
    return endpoint.inputModalities.flatMap((modality) => {
      const sample = INPUT_SAMPLES[modality];
      return sample && takesSample(endpoint, modality, sample) ? [inputProbe(modality, sample)] : [];
    });
  },
};

function takesSample(endpoint: EndpointEntry, modality: string, sample: InputSample): boolean {
  const sources = endpoint.inputSources[modality];
  const containers = endpoint.inputContainers[modality];
  return (!sources || sources.includes('base64')) && (!containers || containers.includes(sample.container));
}

function inputProbe(modality: string, sample: InputSample): Probe {
  const capability: Capability = `input:${modality}`;
  const body = {
    messages: [{ role: 'user', content: [{ type: 'text', text: `Describe this ${modality} input in one word.` }, sample.part] }],
    max_tokens: 64,
  };
  const judge = (reply: ProbeReply): Judgement => {
    if (reply.kind === 'failed') return judgeFailure(reply);
    return { passed: true, detail: `accepted ${sample.described}` };
  };
  return { capability, body, judge };
}

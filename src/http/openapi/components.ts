import { ErrorDetailSchema, ErrorEnvelopeSchema, ErrorMetadataSchema } from '../../core/error-envelope-schema.js';
import { KeyInspectionSchema } from '../../accounts/key-inspection-schema.js';
import { KeyRecordSchema } from '../../accounts/key-record-schema.js';
import { GenerationRecordSchema } from '../../billing/generation-record-schema.js';
import { ModelSummarySchema, PricingSchema, SdkModelSchema, SpeechModelSchema } from '../../catalogue/model-summary-schema.js';
import { EndpointEntrySchema, EndpointListingSchema } from '../../catalogue/listing/endpoint-entry-schema.js';
import { ModelListSchema } from '../../catalogue/listing/model-list-schema.js';
import { FamilyRecordSchema, ProviderRecordSchema, PublicStatsSchema } from '../../catalogue/listing/directory-schemas.js';
import { ChatRequestSchema } from '../../dialects/chat/schema.js';
import { ChatMessageSchema, ContentPartSchema, ToolSchema as ChatToolSchema } from '../../dialects/chat/message-schema.js';
import { ChatCompletionSchema, CompletionUsageSchema, ReasoningDetailSchema } from '../../dialects/chat/reply-schema.js';
import { CompletionsRequestSchema } from '../../dialects/completions/schema.js';
import { TextCompletionSchema } from '../../dialects/completions/reply-schema.js';
import { CountTokensRequestSchema, MessagesRequestSchema } from '../../dialects/messages/schema.js';
import { ContentBlockSchema, MessageSchema } from '../../dialects/messages/block-schema.js';
import { ToolSchema as MessagesToolSchema } from '../../dialects/messages/tool-schema.js';
import { CountTokensReplySchema, MessageReplySchema, MessagesErrorSchema } from '../../dialects/messages/reply-schema.js';
import { ResponsesRequestSchema } from '../../dialects/responses/schema.js';
import { ResponseObjectSchema, ResponsesStreamRefusalSchema } from '../../dialects/responses/reply-schema.js';
import { EmbeddingsRequestSchema } from '../../dialects/embeddings/schema.js';
import { EmbeddingsReplySchema } from '../../dialects/embeddings/reply-schema.js';
import { RerankRequestSchema } from '../../dialects/rerank/schema.js';
import { RerankReplySchema } from '../../dialects/rerank/reply-schema.js';
import { SystemOneRequestSchema } from '../../dialects/systemone/schema.js';
import { DecisionReplySchema } from '../../dialects/systemone/reply-schema.js';
import { SpeechRequestSchema } from '../../dialects/speech/schema.js';
import { SpeechFormSchema } from '../../dialects/speech/form-schema.js';
import { ProviderPreferencesSchema } from '../../dialects/shared/routing-schema.js';

/**
 * The schemas the document names under `components.schemas`. Wherever one of these very objects
 * appears in a route's schema, the document refers to it (`$ref`) instead of repeating it; the
 * routes keep validating with the objects themselves.
 */
export const COMPONENT_SCHEMAS = {
  Error: ErrorEnvelopeSchema,
  ErrorDetail: ErrorDetailSchema,
  ErrorMetadata: ErrorMetadataSchema,
  MessagesError: MessagesErrorSchema,
  ResponsesStreamRefusal: ResponsesStreamRefusalSchema,
  ProviderPreferences: ProviderPreferencesSchema,
  ChatRequest: ChatRequestSchema,
  ChatMessage: ChatMessageSchema,
  ChatContentPart: ContentPartSchema,
  ChatTool: ChatToolSchema,
  ChatCompletion: ChatCompletionSchema,
  CompletionUsage: CompletionUsageSchema,
  ReasoningDetail: ReasoningDetailSchema,
  CompletionRequest: CompletionsRequestSchema,
  TextCompletion: TextCompletionSchema,
  MessagesRequest: MessagesRequestSchema,
  MessagesMessage: MessageSchema,
  MessagesContentBlock: ContentBlockSchema,
  MessagesTool: MessagesToolSchema,
  Message: MessageReplySchema,
  CountTokensRequest: CountTokensRequestSchema,
  CountTokensReply: CountTokensReplySchema,
  ResponsesRequest: ResponsesRequestSchema,
  Response: ResponseObjectSchema,
  EmbeddingsRequest: EmbeddingsRequestSchema,
  Embeddings: EmbeddingsReplySchema,
  RerankRequest: RerankRequestSchema,
  Rerank: RerankReplySchema,
  DecisionRequest: SystemOneRequestSchema,
  Decisions: DecisionReplySchema,
  SpeechRequest: SpeechRequestSchema,
  SpeechForm: SpeechFormSchema,
  ModelSummary: ModelSummarySchema,
  ModelList: ModelListSchema,
  SdkModel: SdkModelSchema,
  Pricing: PricingSchema,
  EndpointListing: EndpointListingSchema,
  EndpointEntry: EndpointEntrySchema,
  Provider: ProviderRecordSchema,
  Family: FamilyRecordSchema,
  PublicStats: PublicStatsSchema,
  SpeechModel: SpeechModelSchema,
  KeyInspection: KeyInspectionSchema,
  KeyRecord: KeyRecordSchema,
  Generation: GenerationRecordSchema,
} as const satisfies Record<string, object>;

const NAMES = new Map<object, string>(Object.entries(COMPONENT_SCHEMAS).map(([name, schema]) => [schema, name]));

/** `value` with every component inside it (but `own`, the component being written) replaced by its `$ref`. */
export function referComponents(value: unknown, own?: object): unknown {
  if (Array.isArray(value)) return value.map((item) => referComponents(item));
  if (typeof value !== 'object' || value === null) return value;
  const name = NAMES.get(value);
  if (name !== undefined && value !== own) return { $ref: `#/components/schemas/${name}` };
  return Object.fromEntries(Object.entries(value).map(([member, item]) => [member, referComponents(item)]));
}

/** `components.schemas` of the document, each written once with its own components referred to. */
export function componentSchemas(): Record<string, unknown> {
  return Object.fromEntries(Object.entries(COMPONENT_SCHEMAS).map(([name, schema]) => [name, referComponents(schema, schema)]));
}

import { Type } from '@sinclair/typebox';
import { ErrorMetadataSchema } from '../../core/error-envelope-schema.js';
import { tagged } from '../shared/tagged-union.js';

const ItemStatus = Type.Union([Type.Literal('in_progress'), Type.Literal('completed'), Type.Literal('incomplete')]);

const OutputPart = tagged('type', [
  Type.Object({ type: Type.Literal('output_text'), text: Type.String(), annotations: Type.Array(Type.Unknown()) }),
  Type.Object({ type: Type.Literal('refusal'), refusal: Type.String() }),
  Type.Object({ type: Type.Literal('output_image'), image_url: Type.String() }),
  Type.Object({
    type: Type.Literal('output_audio'),
    data: Type.String({ description: 'Base64' }),
    transcript: Type.String(),
    id: Type.String(),
    expires_at: Type.Union([Type.Integer(), Type.Null()]),
  }),
]);

const OutputItem = tagged('type', [
  Type.Object({ type: Type.Literal('message'), id: Type.String(), status: ItemStatus, role: Type.Literal('assistant'), content: Type.Array(OutputPart) }),
  Type.Object({
    type: Type.Literal('function_call'),
    id: Type.String(),
    call_id: Type.String(),
    name: Type.String(),
    namespace: Type.Optional(Type.String()),
    arguments: Type.String({ description: 'JSON text' }),
    status: ItemStatus,
  }),
]);

const Placeholder = { description: 'Compatibility placeholder, not a record of the request' };

/** The `response` object of a whole reply (spec 01); it names no provider and no cost. */
export const ResponseObjectSchema = Type.Object({
  id: Type.String({ description: '`resp_` and the generation id\'s own part' }),
  object: Type.Literal('response'),
  created_at: Type.Integer({ description: 'Unix seconds' }),
  status: Type.Union([Type.Literal('completed'), Type.Literal('incomplete'), Type.Literal('failed')]),
  error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
  incomplete_details: Type.Union([Type.Object({ reason: Type.Literal('max_output_tokens') }), Type.Null()]),
  instructions: Type.Null(Placeholder),
  max_output_tokens: Type.Null(Placeholder),
  model: Type.String(),
  output: Type.Array(OutputItem),
  parallel_tool_calls: Type.Literal(true, Placeholder),
  previous_response_id: Type.Null(Placeholder),
  reasoning: Type.Null(Placeholder),
  temperature: Type.Null(Placeholder),
  tool_choice: Type.Literal('auto', Placeholder),
  tools: Type.Array(Type.Unknown(), { maxItems: 0, ...Placeholder }),
  top_p: Type.Null(Placeholder),
  usage: Type.Object({
    input_tokens: Type.Integer({ minimum: 0 }),
    output_tokens: Type.Integer({ minimum: 0 }),
    total_tokens: Type.Integer({ minimum: 0 }),
    service: Type.Optional(Type.Object(
      { unreported: Type.Array(Type.String(), { minItems: 1 }) },
      { description: 'Members sent as 0 that nothing measured; absent when every count was reported' },
    )),
  }),
  metadata: Type.Object({}, Placeholder),
});

/**
 * The refusal of a streamed request before its stream committed (failure.ts renders it); a request
 * refused for `previous_response_id` or `background` keeps the shared envelope.
 */
export const ResponsesStreamRefusalSchema = Type.Object({
  error: Type.Object({
    message: Type.String(),
    type: Type.Literal('invalid_request_error'),
    code: Type.Null(),
    metadata: ErrorMetadataSchema,
  }),
});

/** What `stream: true` sends instead (spec 01 Events). */
export const RESPONSES_STREAM_EVENTS = 'Named events, each JSON with `type` and an increasing `sequence_number`: `response.created`, `response.in_progress`, '
  + 'output item, content part, text, function-call argument and audio events, then `response.completed` (status `completed` or `incomplete`) '
  + 'or, after a failure, `event: error` and `response.failed`. There is no `[DONE]`.';

import { Type } from '@sinclair/typebox';
import { tagged } from '../shared/tagged-union.js';

const Text = Type.Object({ type: Type.Literal('text'), text: Type.String() }, { additionalProperties: true });
const ImageUrl = Type.Object(
  { type: Type.Literal('image_url'), image_url: Type.Object({ url: Type.String({ minLength: 1 }), detail: Type.Optional(Type.String()) }) },
  { additionalProperties: true },
);
const VideoUrl = Type.Object({ type: Type.Literal('video_url'), video_url: Type.Object({ url: Type.String({ minLength: 1 }) }) }, { additionalProperties: true });
const AudioUrl = Type.Object({ type: Type.Literal('audio_url'), audio_url: Type.Object({ url: Type.String({ minLength: 1 }) }) }, { additionalProperties: true });
const InputAudio = Type.Object(
  { type: Type.Literal('input_audio'), input_audio: Type.Object({ data: Type.String(), format: Type.String({ minLength: 1 }) }) },
  { additionalProperties: true },
);
const File = Type.Object(
  {
    type: Type.Literal('file'),
    file: Type.Object({ filename: Type.Optional(Type.String()), file_data: Type.Optional(Type.String()), file_id: Type.Optional(Type.String()) }),
  },
  { additionalProperties: true },
);

export const ContentPartSchema = tagged('type', [Text, ImageUrl, VideoUrl, AudioUrl, InputAudio, File]);
const Content = Type.Union([Type.String(), Type.Array(ContentPartSchema)]);

const ToolCall = Type.Object({
  id: Type.String(),
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String(), arguments: Type.String() }),
});

const roleMessage = <R extends string>(role: R, extra: Parameters<typeof Type.Object>[0], contentRequired: boolean) =>
  Type.Object(
    { role: Type.Literal(role), content: contentRequired ? Content : Type.Optional(Content), name: Type.Optional(Type.String()), ...extra },
    { additionalProperties: true },
  );

export const ChatMessageSchema = tagged('role', [
  roleMessage('system', {}, true),
  roleMessage('developer', {}, true),
  roleMessage('user', {}, true),
  roleMessage('assistant', {
    tool_calls: Type.Optional(Type.Array(ToolCall)),
    reasoning: Type.Optional(Type.String()),
    reasoning_details: Type.Optional(Type.Array(Type.Unknown())),
    refusal: Type.Optional(Type.String()),
  }, false),
  roleMessage('tool', { tool_call_id: Type.String() }, true),
]);

export const ToolSchema = Type.Object(
  {
    type: Type.Literal('function'),
    function: Type.Object(
      {
        name: Type.String({ pattern: '^[a-zA-Z0-9_-]{1,128}$' }),
        description: Type.Optional(Type.String()),
        parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        strict: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);

export const ToolChoiceSchema = Type.Union([
  Type.Literal('none'),
  Type.Literal('auto'),
  Type.Literal('required'),
  Type.Object({ type: Type.Literal('function'), function: Type.Object({ name: Type.String() }) }),
]);

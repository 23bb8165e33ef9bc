/**
 * Simulator behaviours, chosen by the upstream model name (`chat;tps=200;ttft=50`) and by
 * `[[sim key=value flag]]` directives in the last user message (directives win). Keys:
 *
 * - `tokens=N`          answer tokens (default 12), capped by max_tokens / max_completion_tokens
 *                       (then finish_reason `length`); reasoning tokens are not capped
 * - `tps=N`             stream pacing in tokens per second; non-streamed replies wait the whole
 *                       generation time instead
 * - `ttft=MS`           delay before the first token (streams) or the reply / error (non-streamed)
 * - `tools`             one call to the named tool_choice, else the first tool, else `lookup`; a
 *                       request whose tool_choice requires a call (`required`, a named function;
 *                       `any`, `tool` on the Anthropic wire) gets that call without the key
 * - `tool_calls=N`      (implies `tools`) N parallel calls, 1 to 16: to the named tool_choice, else
 *                       to the declared tools in turn; each call's arguments also carry `call` (its
 *                       place, from 1) when there are several. Ids: the reply's call id, then `_1`…
 * - `interleave`        streamed tool calls on the OpenAI-compatible wire: every call's header (id,
 *                       name, empty arguments) first, then the argument fragments of all calls in
 *                       turn (legal there: fragments are keyed by `index`). The Anthropic wire has
 *                       no counterpart and sends its tool_use blocks one after the other
 * - `prose`             text even when `tools` is set or tool_choice requires a call
 * - `echo`              the reply text is the JSON of the request body (one token)
 * - `no_usage`          no usage in the body and no usage chunk
 * - `error=STATUS`      that status and an OpenAI error body before any byte of answer;
 *                       `retry_after=S` adds Retry-After
 * - `fail_after=N`      streams: N content chunks, then an in-band error frame, then the end
 * - `disconnect_after=N` streams: N content chunks, then the socket is destroyed (0 = no chunk)
 * - `malformed[=N]`     streams: a non-JSON frame after N content chunks (default 1)
 * - `refuse_param=NAME` 400 naming NAME when the body has that member
 * - `refuse_input=MODALITY` 400 when a message carries a part of that input modality (`image`:
 *                       image_url or an image block; `audio`: input_audio, audio_url; `video`:
 *                       video_url; `file`: file or a document block)
 * - `follow_schema`     a `response_format` of type `json_schema` is answered with JSON matching its
 *                       schema (one token); without it the answer is the usual prose
 * - `require_param=NAME` 400 naming NAME when the body lacks that member
 * - `reasoning=N`       N reasoning tokens before the answer: `reasoning` and `reasoning.text`
 *                       `reasoning_details` (the last fragment signed), counted in completion_tokens
 *                       and in completion_tokens_details.reasoning_tokens; none when the request says
 *                       `reasoning_effort: "none"`, unless `reasoning_on_none` is set too
 * - `encrypted`         with reasoning: one `reasoning.encrypted` detail (index 1) after the text
 * - `image=WxH`         a real W×H grayscale PNG as a data URL in `images` (whole, in one chunk when
 *                       streamed), sides 1 to 4096; `image_url=https://…` passes that URL instead
 * - `image_only`        with an image: no text at all (content "" non-streamed, no content deltas)
 * - `audio=SECONDS`     generated audio as OpenAI sends it: a real WAV (PCM 16-bit mono 8000 Hz,
 *                       silence, up to 60 s) in `message.audio` with the answer as its transcript and
 *                       content null; streamed as `delta.audio` fragments, one per answer token
 * - `prompt_tokens=N`   usage reports N prompt tokens whatever the prompt held (a provider that
 *                       counts differently from the gateway's estimate)
 * - `cached=N`          usage.prompt_tokens_details.cached_tokens, clamped to prompt_tokens
 * - `cache_write=N`     usage.prompt_tokens_details.cache_write_tokens, clamped to the prompt
 *                       tokens not already counted as cached
 * - `dispatch`          streamed tool calls: an `event: tool_call_dispatch` frame with the whole
 *                       call after its last argument fragment, before the finish chunk.
 *                       `dispatch_twice` sends it twice; `dispatch_malformed` first sends one whose
 *                       data is not JSON; `dispatch_big` first sends one whose arguments exceed
 *                       64 KiB; `fail_after_dispatch` ends with an in-band error after the dispatch
 * - `refusal`           the answer is a refusal: `refusal` text (fragments when streamed), content null
 * - `native_finish=X`   the finish_reason sent is X (e.g. `end_turn`) instead of the computed one
 * - `answer=WORD`       the answer text is exactly WORD, one token
 * - `top=T:P,T:P,…`     with `logprobs: true`, the first answer token's alternatives and their
 *                       probabilities (0 < P ≤ 1), reported as `top_logprobs`; without `answer` the
 *                       most probable one is the answer. Every answer token otherwise gets
 *                       probability 0.9 and one runner-up alternative
 * - `labels`            where the last user message ends with `Answer with one of: A, B, C.` (the
 *                       typed-decision prompt), the answer is one of those labels, picked by a digest
 *                       of the message, and `top` spreads over every label; other prompts as usual
 *
 * Answers are, by precedence: echo, refusal, tool call, text. Images and audio accompany text.
 * A text answer ends before the first requested stop sequence it contains (`stop`, or
 * `stop_sequences` on the Messages wire, which then names it with `stop_reason: stop_sequence`).
 * In streams, "content chunks" (counted by fail_after, disconnect_after, malformed and tps) are
 * every chunk between the opening and the finish: reasoning, answer fragments, the picture.
 * Non-streamed requests turn the stream-only failures into their whole-reply counterparts:
 * `disconnect_after` drops the connection, `fail_after` answers 500, `malformed` a non-JSON body.
 * An unknown key or a bad value is answered with 400 naming it.
 */
export interface SimBehaviour {
  /** Answer tokens to produce before `max_tokens` caps them. */
  tokens: number;
  /** Stream pacing in tokens per second; undefined = as fast as possible. */
  tps: number | undefined;
  /** Delay before the first token (streams) or the reply (non-streamed). */
  ttftMs: number | undefined;
  tools: boolean;
  /** Parallel calls in a tool answer. */
  toolCalls: number;
  /** Streams send every call's header before the argument fragments, which alternate between calls. */
  interleave: boolean;
  prose: boolean;
  echo: boolean;
  usage: boolean;
  errorStatus: number | undefined;
  retryAfter: string | undefined;
  failAfter: number | undefined;
  disconnectAfter: number | undefined;
  /** Content chunks sent before the non-JSON frame; undefined = no such frame. */
  malformedAfter: number | undefined;
  refuseParam: string | undefined;
  requireParam: string | undefined;
  /** The input modality whose parts are refused with 400; undefined = every part is taken. */
  refuseInput: string | undefined;
  /** Answer a `json_schema` response format with JSON matching the schema. */
  followSchema: boolean;
  /** Reasoning tokens before the answer; undefined = no reasoning. */
  reasoning: number | undefined;
  /** Reason even when the request asks for `reasoning_effort: "none"`. */
  reasoningOnNone: boolean;
  encrypted: boolean;
  image: ImageBehaviour | undefined;
  imageOnly: boolean;
  audioSeconds: number | undefined;
  /** Prompt tokens to report instead of the counted ones; undefined = counted. */
  promptTokens: number | undefined;
  cached: number | undefined;
  cacheWrite: number | undefined;
  /** Streamed tool-call dispatch events; undefined = none. */
  dispatch: DispatchBehaviour | undefined;
  refusal: boolean;
  /** The raw finish_reason to send instead of the computed one. */
  nativeFinish: string | undefined;
  /** The whole answer text, as one token. */
  answer: string | undefined;
  /** The first answer token's scripted alternatives. */
  top: { token: string; probability: number }[] | undefined;
  /** Answer prompts that offer labels with one of them. */
  labels: boolean;
}

export type ImageBehaviour = { kind: 'png'; width: number; height: number } | { kind: 'url'; url: string };

export interface DispatchBehaviour {
  twice: boolean;
  malformed: boolean;
  big: boolean;
  failAfter: boolean;
}

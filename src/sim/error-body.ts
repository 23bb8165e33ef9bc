interface ErrorKind {
  type: string;
  code: string | null;
}

const BAD_REQUEST: ErrorKind = { type: 'invalid_request_error', code: null };
const SERVER_ERROR: ErrorKind = { type: 'server_error', code: null };

/** OpenAI's error `type` and `code` for the statuses a provider answers. */
const ERROR_KINDS: Readonly<Record<number, ErrorKind>> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'permission_error', code: null },
  404: { type: 'invalid_request_error', code: null },
  408: { type: 'timeout_error', code: 'timeout' },
  409: { type: 'invalid_request_error', code: 'conflict' },
  413: { type: 'invalid_request_error', code: 'request_too_large' },
  422: { type: 'invalid_request_error', code: null },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  502: { type: 'server_error', code: 'bad_gateway' },
  503: { type: 'server_error', code: 'service_unavailable' },
  504: { type: 'server_error', code: 'timeout' },
};

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

function kindOf(status: number): ErrorKind {
  return ERROR_KINDS[status] ?? (status >= 500 ? SERVER_ERROR : BAD_REQUEST);
}

export interface ErrorDetail {
  param?: string;
  code?: string;
}

export function errorBody(status: number, message: string, detail: ErrorDetail = {}): OpenAiErrorBody {
  const kind = kindOf(status);
  return { error: { message, type: kind.type, param: detail.param ?? null, code: detail.code ?? kind.code } };
}

import { groupResourceOf, type ResourceType } from './resource-types';

/** The `Status` body the apiserver answers errors with; client-node surfaces it in `ApiException.body`. */
export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: readonly unknown[];
    [field: string]: unknown;
  };
  code: number;
}

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** An apiserver-shaped failure: thrown inside the fake's handlers and written as a `Status`. */
export class ApiStatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusBody['details'],
  ) {
    super(message);
    this.name = 'ApiStatusError';
  }

  static forCode(code: number, message: string): ApiStatusError {
    return new ApiStatusError(code, REASONS[code] ?? 'Unknown', message);
  }

  toBody(): StatusBody {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

function details(type: ResourceType, name: string): StatusBody['details'] {
  return { name, group: type.group, kind: type.plural };
}

export const statusErrors = {
  notFound: (type: ResourceType, name: string) =>
    new ApiStatusError(404, 'NotFound', `${groupResourceOf(type)} "${name}" not found`, details(type, name)),
  alreadyExists: (type: ResourceType, name: string) =>
    new ApiStatusError(
      409,
      'AlreadyExists',
      `${groupResourceOf(type)} "${name}" already exists`,
      details(type, name),
    ),
  conflict: (type: ResourceType, name: string) =>
    new ApiStatusError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${groupResourceOf(type)} "${name}": the object has been modified; ` +
        'please apply your changes to the latest version and try again',
      details(type, name),
    ),
  invalid: (type: ResourceType, name: string, message: string) =>
    new ApiStatusError(
      422,
      'Invalid',
      `${type.kind}${type.group ? '.' + type.group : ''} "${name}" is invalid: ${message}`,
      { name, group: type.group, kind: type.kind },
    ),
  badRequest: (message: string) => new ApiStatusError(400, 'BadRequest', message),
  methodNotAllowed: (message: string) => new ApiStatusError(405, 'MethodNotAllowed', message),
  unsupportedMediaType: (contentType: string) =>
    new ApiStatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got ${contentType})`,
    ),
  gone: (message: string) => new ApiStatusError(410, 'Expired', message),
  pageNotFound: (path: string) =>
    new ApiStatusError(404, 'NotFound', `the server could not find the requested resource (${path})`),
};

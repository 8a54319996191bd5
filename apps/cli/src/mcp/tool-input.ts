/** A tool parameter as its JSON Schema says it (the schema the client sees is the schema checked here). */
export type ToolParam =
  | { type: 'string'; description: string; enum?: readonly string[] }
  | { type: 'integer'; description: string; minimum?: number; maximum?: number }
  | { type: 'number'; description: string }
  | { type: 'object'; description: string; additionalProperties: { type: 'number' } };

export interface ToolInput {
  properties: Record<string, ToolParam>;
  required?: readonly string[];
}

/** A tool call's arguments break the tool's input schema: a tool error `invalid_arguments`, nothing sent. */
export class ToolArgumentsError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid arguments: ${problems.join('; ')}`);
    this.name = 'ToolArgumentsError';
  }
}

/** The JSON Schema of `tools/list`: an object of the declared properties, nothing else. */
export function inputSchema(input: ToolInput): { type: 'object'; properties: Record<string, object>; required?: string[]; additionalProperties: false } {
  return { type: 'object', properties: input.properties, ...(input.required?.length ? { required: [...input.required] } : {}), additionalProperties: false };
}

function paramProblem(name: string, value: unknown, param: ToolParam): string | null {
  switch (param.type) {
    case 'string':
      if (typeof value !== 'string') return `${name} must be a string`;
      return param.enum !== undefined && !param.enum.includes(value) ? `${name} must be one of ${param.enum.join(', ')}` : null;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return `${name} must be an integer`;
      if (param.minimum !== undefined && value < param.minimum) return `${name} must be at least ${param.minimum}`;
      return param.maximum !== undefined && value > param.maximum ? `${name} must be at most ${param.maximum}` : null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : `${name} must be a number`;
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${name} must be an object`;
      const bad = Object.entries(value).filter(([, v]) => typeof v !== 'number' || !Number.isFinite(v));
      return bad.length === 0 ? null : `${name}.${bad[0]?.[0] ?? ''} must be a number`;
    }
  }
}

/** The arguments checked against the tool's input (required, types, no unknown names); `ToolArgumentsError` otherwise. */
export function checkedArguments(input: ToolInput, args: Record<string, unknown> | undefined): Record<string, unknown> {
  const given = args ?? {};
  const problems: string[] = [];
  for (const name of input.required ?? []) if (given[name] === undefined) problems.push(`${name} is required`);
  for (const [name, value] of Object.entries(given)) {
    const param = input.properties[name];
    if (param === undefined) problems.push(`${name} is not a parameter of this tool`);
    else if (value !== undefined) {
      const problem = paramProblem(name, value, param);
      if (problem !== null) problems.push(problem);
    }
  }
  if (problems.length > 0) throw new ToolArgumentsError(problems);
  return given;
}

/** Typed reads of checked arguments. */
export const arg = {
  text: (args: Record<string, unknown>, name: string): string | undefined => args[name] as string | undefined,
  int: (args: Record<string, unknown>, name: string): number | undefined => args[name] as number | undefined,
  metrics: (args: Record<string, unknown>, name: string): Record<string, number> => (args[name] as Record<string, number> | undefined) ?? {},
};

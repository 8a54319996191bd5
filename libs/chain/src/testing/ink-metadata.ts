/**
 * A minimal ink! contract metadata document (the shape `cargo contract` writes) with the given
 * message labels, for tests of metadata reading. `version` 5 and 4 use the flat shape, 3 the `V3` wrapper.
 */
export function inkMetadata(messages: readonly string[], version: 3 | 4 | 5 = 5): Record<string, unknown> {
  const source = { hash: `0x${'11'.repeat(32)}`, language: 'ink! 5.0.0', compiler: 'rustc 1.80.0' };
  const contract = { name: 'claims', version: '0.1.0', authors: ['rcs'] };
  const message = (label: string, index: number) => ({
    label,
    selector: `0x${index.toString(16).padStart(8, '0')}`,
    args: [],
    mutates: true,
    payable: false,
    default: false,
    docs: [],
    returnType: null,
  });
  const spec = {
    constructors: [{ label: 'new', selector: '0x9bae9d5e', args: [], payable: false, default: false, docs: [], returnType: null }],
    docs: [],
    events: [],
    environment: {},
    lang_error: null,
    messages: messages.map(message),
  };
  if (version === 3) {
    return { metadataVersion: '0.1.0', source, contract, V3: { spec, storage: { struct: { fields: [] } }, types: [] } };
  }
  return { source, contract, spec, storage: { root: { layout: { struct: { fields: [], name: 'Claims' } }, root_key: '0x00000000' } }, types: [], version };
}

import { sharedDataSourceOptions } from '@rcs/persistence';
import { expectNoSchemaDrift } from '@rcs/testing';
import schema from '../src/data-source';

describe('payout verifier database schema', () => {
  it('entities declare exactly what the migrations create (names included), so a generated migration would be empty', () =>
    expectNoSchemaDrift({ ...schema, dataSourceOptions: sharedDataSourceOptions() }));
});

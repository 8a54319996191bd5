import { snakeCase, SnakeNamingStrategy } from './snake-naming.strategy';

describe('SnakeNamingStrategy', () => {
  const naming = new SnakeNamingStrategy();

  it('snake-cases camelCase, PascalCase and acronyms', () => {
    expect(snakeCase('createdAt')).toBe('created_at');
    expect(snakeCase('WorkItem')).toBe('work_item');
    expect(snakeCase('HTTPServer')).toBe('http_server');
    expect(snakeCase('sha256Hash')).toBe('sha256_hash');
  });

  it('keeps explicit names and snake-cases derived ones', () => {
    expect(naming.tableName('RewardSnapshot', undefined)).toBe('reward_snapshot');
    expect(naming.tableName('RewardSnapshot', 'reward_snapshots')).toBe('reward_snapshots');
    expect(naming.columnName('claimedMetrics', '', [])).toBe('claimed_metrics');
    expect(naming.columnName('claimedMetrics', 'metrics', [])).toBe('metrics');
    expect(naming.columnName('score', '', ['bestResult'])).toBe('best_result_score');
  });

  it('names relation and join-table columns in snake_case', () => {
    expect(naming.relationName('workItem')).toBe('work_item');
    expect(naming.joinColumnName('workItem', 'id')).toBe('work_item_id');
    expect(naming.joinTableName('tasks', 'tags', 'labelTags', 'tasks')).toBe('tasks_label_tags_tags');
    expect(naming.joinTableColumnName('tasks', 'id')).toBe('tasks_id');
  });
});

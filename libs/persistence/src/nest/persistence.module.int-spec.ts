import { DynamicModule, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InjectDataSource, InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { createScratchDatabase, ScratchDatabase, suiteResource } from '@rcs/testing';
import { DataSource, Repository } from 'typeorm';
import schema from '../../test/fixtures/data-source';
import { Note } from '../../test/fixtures/note.entity';
import { inTransaction } from '../database/transaction';
import { OPENED_DATABASE, PersistenceModule } from './persistence.module';
import type { OpenedDatabase } from '../database/open-database';

@Injectable()
class NotesService {
  constructor(
    @InjectRepository(Note) private readonly notes: Repository<Note>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  create(title: string): Promise<Note> {
    return inTransaction(this.dataSource, (manager) => manager.save(Note, { title }));
  }

  titles(): Promise<string[]> {
    return this.notes.find({ order: { title: 'ASC' } }).then((rows) => rows.map((n) => n.title));
  }
}

@Module({ imports: [TypeOrmModule.forFeature([Note])], providers: [NotesService], exports: [NotesService] })
class NotesModule {}

class DatabaseConfig {
  constructor(readonly url: string) {}
}

@Module({})
class ConfigModule {
  static with(config: DatabaseConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: DatabaseConfig, useValue: config }], exports: [DatabaseConfig] };
  }
}

describe('PersistenceModule', () => {
  let scratch: ScratchDatabase;

  suiteResource(() => createScratchDatabase('persistence_nest'), (resource) => resource.drop(), (made) => (scratch = made));

  it('opens the database from injected config, serves @InjectRepository, and closes on shutdown', async () => {
    @Module({
      imports: [
        PersistenceModule.forRootAsync({
          imports: [ConfigModule.with(new DatabaseConfig(scratch.url))],
          inject: [DatabaseConfig],
          useFactory: (config: DatabaseConfig) => ({
            url: config.url,
            embeddedDir: 'unused-when-a-url-is-set',
            entities: schema.entities,
            migrations: schema.migrations,
            logger: { log: () => undefined, warn: () => undefined },
          }),
        }),
        NotesModule,
      ],
    })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false });

    const notes = app.get(NotesService);
    await notes.create('from nest');
    expect(await notes.titles()).toEqual(['from nest']);
    const dataSource = app.get(DataSource);
    expect(app.get<OpenedDatabase>(OPENED_DATABASE).dataSource).toBe(dataSource);

    await app.close();
    expect(dataSource.isInitialized).toBe(false);
  });
});

import { Inject, Injectable } from '@nestjs/common';
import { prefixedId } from '@quarry/common';
import { resourceNotFound, type ResourceRecord } from '@quarry/metastore';
import { type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { parseNotifier, type NotifierDocument } from './notifiers.input';

type NotifierRecord = ResourceRecord<NotifierDocument>;

/** Notifiers (`/v2/notifiers`): stored and validated; nothing sends notifications yet. */
@Injectable()
export class NotifiersService {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  list(): Promise<NotifierRecord[]> {
    return this.storage.metastore.resources.list<NotifierDocument>('notifier');
  }

  async get(id: string): Promise<NotifierRecord> {
    const record = await this.storage.metastore.resources.get<NotifierDocument>('notifier', id);
    if (!record) throw resourceNotFound('notifier', id);
    return record;
  }

  create(body: Record<string, unknown>, who: string): Promise<NotifierRecord> {
    const doc = parseNotifier(body);
    return this.storage.metastore.resources.create('notifier', prefixedId('ntf_'), { document: doc }, who);
  }

  update(id: string, body: Record<string, unknown>, who: string): Promise<NotifierRecord> {
    const doc = parseNotifier(body);
    return this.storage.metastore.resources.replace('notifier', id, { document: doc }, who);
  }

  async delete(id: string): Promise<void> {
    await this.storage.metastore.resources.delete('notifier', id);
  }
}

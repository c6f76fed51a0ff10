import { Inject, Injectable } from '@nestjs/common';
import { AlertingLog } from '@quarry/alerting';
import { invalid, prefixedId, systemClock } from '@quarry/common';
import { resourceNotFound, type ResourceRecord } from '@quarry/metastore';
import { type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { keepSecretHeaders, parseNotifier, type NotifierDocument } from './notifiers.input';

type NotifierRecord = ResourceRecord<NotifierDocument>;

/**
 * Notifiers (`/v2/notifiers`): stored and validated; libs/alerting delivers through them. An email
 * notifier is refused while no SMTP server is configured: it could never deliver.
 */
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
    const doc = this.deliverable(parseNotifier(body));
    return this.storage.metastore.resources.create('notifier', prefixedId('ntf_'), { document: doc }, who);
  }

  async update(id: string, body: Record<string, unknown>, who: string): Promise<NotifierRecord> {
    const doc = keepSecretHeaders(this.deliverable(parseNotifier(body)), (await this.get(id)).document);
    return this.storage.metastore.resources.replace('notifier', id, { document: doc }, who);
  }

  private deliverable(doc: NotifierDocument): NotifierDocument {
    if (doc.properties.email && !this.storage.config.notifiers.smtp) {
      throw invalid(
        'email notifiers need an SMTP server: this server has none configured (QUARRY_SMTP_URL)',
        { code: 'notifier_email_unconfigured' },
      );
    }
    return doc;
  }

  /** Deletes the notifier and what it delivered (its delivery log would otherwise outlive it by 30 days). */
  async delete(id: string): Promise<void> {
    await this.storage.metastore.resources.delete('notifier', id);
    await new AlertingLog(this.storage.metastore.db, systemClock).deleteNotifier(id);
  }
}

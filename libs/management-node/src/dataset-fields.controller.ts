import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { conflict, invalid, notFound } from '@quarry/common';
import type { DatasetFieldRecord, DatasetRecord } from '@quarry/metastore';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, type StorageRuntime, STORAGE_RUNTIME, withKindFieldTypes } from '@quarry/server';
import { listDatasetFields, storeListedField } from './dataset-fields';
import { validateBody } from './openapi-validation';

/** DatasetField as v2.json has it. */
function fieldView(field: DatasetFieldRecord) {
  return {
    name: field.name,
    type: field.type,
    unit: field.unit,
    description: field.description,
    hidden: field.hidden,
  };
}

const MAP_FIELD_NAME = /^[A-Za-z0-9][A-Za-z0-9_.\-/@:]*$/;
const MAP_FIELD_MAX = 1024;

/**
 * Map field names: a field path (dots nest) of at most 1024 characters. Names starting with `_` are
 * refused because that prefix belongs to system fields (`_time`, `_sysTime`); the Go suite expects
 * `__invalid__` to be rejected.
 */
export function validateMapFieldName(name: string, where = 'name'): string {
  if (name.length === 0 || name.length > MAP_FIELD_MAX || !MAP_FIELD_NAME.test(name)) {
    throw invalid(
      `${where}: invalid map field name ${JSON.stringify(name)} (1 to ${MAP_FIELD_MAX} characters: letters, digits and _ . - / @ :, not starting with _ or punctuation)`,
      { code: 'map_field_invalid' },
    );
  }
  return name;
}

/**
 * `/v2/datasets/{id}/fields` (the schema seen in ingested data, with editable unit, description and
 * hidden flag) and `/v2/datasets/{id}/mapfields` (fields whose nested keys stay one map-typed column).
 */
@Controller('v2/datasets/:id')
export class DatasetFieldsController {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  /** Fields of compacted blocks and of the tail alike: a field is listed right after its first ingest. */
  @Get('fields')
  @Access({ tokens: 'any', org: ['datasets', 'read'] })
  async listFields(@Param('id') id: string) {
    return (await listDatasetFields(this.storage, this.dataset(id).id)).map(fieldView);
  }

  @Get('fields/:field')
  @Access({ tokens: 'any', org: ['datasets', 'read'] })
  async getField(@Param('id') id: string, @Param('field') name: string) {
    return fieldView(await this.field(id, name));
  }

  /** Updates unit, description and hidden; the type comes from ingested data and cannot be set. */
  @Put('fields/:field')
  @Access({ tokens: 'any', org: ['datasets', 'update'] })
  async updateField(@Param('id') id: string, @Param('field') name: string, @Req() request: FastifyRequest) {
    const body = validateBody<{ name: string; unit?: string; description?: string; hidden?: boolean }>(
      'PUT /datasets/{dataset_id}/fields/{field_id}',
      jsonBodyOf(request),
    );
    if (body.name !== name) {
      throw invalid(`name: must be the field of the path ("${name}"); fields cannot be renamed`, {
        code: 'field_invalid',
      });
    }
    const { id: datasetId, kind } = this.dataset(id);
    await storeListedField(this.storage, datasetId, await this.field(id, name));
    const field = await this.storage.metastore.datasets.updateField(datasetId, name, {
      unit: body.unit,
      description: body.description,
      hidden: body.hidden,
    });
    return fieldView(withKindFieldTypes([field], kind)[0]);
  }

  @Get('mapfields')
  @Access({ tokens: 'any', org: ['datasets', 'read'] })
  listMapFields(@Param('id') id: string) {
    return this.dataset(id).mapFields;
  }

  /** Replaces the whole list: listed names are map fields, every other is not. */
  @Put('mapfields')
  @Access({ tokens: 'any', org: ['datasets', 'update'] })
  async replaceMapFields(@Param('id') id: string, @Req() request: FastifyRequest) {
    const names =
      validateBody<string[] | null>('PUT /datasets/{dataset_id}/mapfields', jsonBodyOf(request)) ?? [];
    names.forEach((name, i) => validateMapFieldName(name, `[${i}]`));
    const duplicate = names.find((name, i) => names.indexOf(name) !== i);
    if (duplicate !== undefined)
      throw invalid(`map field "${duplicate}" is listed twice`, { code: 'map_field_invalid' });
    return (await this.saveMapFields(this.dataset(id), names)).mapFields;
  }

  @Post('mapfields')
  @HttpCode(200)
  @Access({ tokens: 'any', org: ['datasets', 'update'] })
  async addMapField(@Param('id') id: string, @Req() request: FastifyRequest) {
    const body = validateBody<{ name: string }>('POST /datasets/{dataset_id}/mapfields', jsonBodyOf(request));
    const name = validateMapFieldName(body.name);
    const dataset = this.dataset(id);
    if (dataset.mapFields.includes(name))
      throw conflict(`map field "${name}" already exists`, { code: 'map_field_exists' });
    await this.saveMapFields(dataset, [...dataset.mapFields, name]);
    return { name };
  }

  @Delete('mapfields/:name')
  @HttpCode(204)
  @Access({ tokens: 'any', org: ['datasets', 'update'] })
  async deleteMapField(@Param('id') id: string, @Param('name') name: string): Promise<void> {
    const dataset = this.dataset(id);
    if (!dataset.mapFields.includes(name))
      throw notFound(`map field "${name}" not found in dataset "${id}"`, { code: 'map_field_not_found' });
    await this.saveMapFields(
      dataset,
      dataset.mapFields.filter((f) => f !== name),
    );
  }

  private async field(datasetName: string, name: string): Promise<DatasetFieldRecord> {
    const fields = await listDatasetFields(this.storage, this.dataset(datasetName).id);
    const field = fields.find((f) => f.name === name);
    if (!field)
      throw notFound(`field "${name}" not found in dataset "${datasetName}"`, { code: 'field_not_found' });
    return field;
  }

  private dataset(name: string): DatasetRecord {
    const dataset = this.storage.registry.getByName(name);
    if (!dataset) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
    return dataset;
  }

  private async saveMapFields(dataset: DatasetRecord, mapFields: string[]): Promise<DatasetRecord> {
    const updated = await this.storage.metastore.datasets.update(dataset.id, { mapFields });
    this.storage.registry.put(updated);
    return updated;
  }
}

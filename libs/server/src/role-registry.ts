import type { Provider, Type } from '@nestjs/common';
import type { Role } from './config/config';
import { IngestController } from './ingest/ingest.controller';
import { IngestService } from './ingest/ingest.service';
import { DatasetsController } from './management/datasets.controller';
import { DatasetsService } from './management/datasets.service';
import { TokensController } from './management/tokens.controller';
import { TokensService } from './management/tokens.service';
import { UserController } from './management/user.controller';
import { QueryController } from './query/query.controller';
import { QueryService } from './query/query.service';

/**
 * Which HTTP surface each role serves (Loki's module map). The standalone app runs every role; cluster
 * apps pick theirs with `QUARRY_ROLES`. The compactor has no HTTP surface: the storage runtime starts it.
 */
export const ROLE_REGISTRY: Record<Role, { controllers: Type[]; providers: Provider[] }> = {
  ingest: { controllers: [IngestController], providers: [IngestService] },
  query: { controllers: [QueryController], providers: [QueryService] },
  management: {
    controllers: [DatasetsController, TokensController, UserController],
    providers: [DatasetsService, TokensService],
  },
  compactor: { controllers: [], providers: [] },
};

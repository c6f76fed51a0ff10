import type { Provider, Type } from '@nestjs/common';
import type { Role } from './config/config';
import { IngestController } from './ingest/ingest.controller';
import { IngestService } from './ingest/ingest.service';
import { AnnotationsController } from './management/annotations.controller';
import { AnnotationsService } from './management/annotations.service';
import { DashboardsController } from './management/dashboards.controller';
import { DashboardsService } from './management/dashboards.service';
import { DatasetsController } from './management/datasets.controller';
import { DatasetsService } from './management/datasets.service';
import { MonitorsController } from './management/monitors.controller';
import { MonitorsService } from './management/monitors.service';
import { NotifiersController } from './management/notifiers.controller';
import { NotifiersService } from './management/notifiers.service';
import { StarredQueriesController } from './management/starred-queries.controller';
import { StarredQueriesService } from './management/starred-queries.service';
import { TokensController } from './management/tokens.controller';
import { TokensService } from './management/tokens.service';
import { UserController } from './management/user.controller';
import { UsersController } from './management/users.controller';
import { RolesController } from './management/roles.controller';
import { GroupsController } from './management/groups.controller';
import { OrgsController } from './management/orgs.controller';
import { DatasetFieldsController } from './management/dataset-fields.controller';
import { DatasetTrimController } from './management/dataset-trim.controller';
import { VirtualFieldCache } from './management/vfields.cache';
import { VirtualFieldsController } from './management/vfields.controller';
import { VirtualFieldsService } from './management/vfields.service';
import { ViewsController } from './management/views.controller';
import { ViewsService } from './management/views.service';
import { MetricsInfoController } from './metrics/metrics-info.controller';
import { MetricsInfoService } from './metrics/metrics-info.service';
import { MetricsIngestController } from './metrics/metrics-ingest.controller';
import { MetricsIngestService } from './metrics/metrics-ingest.service';
import { MplQueryController } from './metrics/mpl-query.controller';
import { MplQueryService } from './metrics/mpl-query.service';
import { QueryController } from './query/query.controller';
import { QueryService } from './query/query.service';

/**
 * Which HTTP surface each role serves (Loki's module map). The standalone app runs every role; cluster
 * apps pick theirs with `QUARRY_ROLES`. The compactor has no HTTP surface: the storage runtime starts it.
 */
export const ROLE_REGISTRY: Record<Role, { controllers: Type[]; providers: Provider[] }> = {
  ingest: {
    controllers: [IngestController, MetricsIngestController],
    providers: [IngestService, MetricsIngestService],
  },
  // Queries read virtual fields like stored ones; the cache is shared with management when both run.
  query: {
    controllers: [QueryController, MetricsInfoController, MplQueryController],
    providers: [QueryService, VirtualFieldCache, MetricsInfoService, MplQueryService],
  },
  management: {
    controllers: [
      DatasetsController,
      TokensController,
      UserController,
      DashboardsController,
      ViewsController,
      VirtualFieldsController,
      StarredQueriesController,
      AnnotationsController,
      MonitorsController,
      NotifiersController,
      RolesController,
      GroupsController,
      UsersController,
      OrgsController,
      DatasetFieldsController,
      DatasetTrimController,
    ],
    providers: [
      DatasetsService,
      TokensService,
      DashboardsService,
      ViewsService,
      VirtualFieldsService,
      VirtualFieldCache,
      StarredQueriesService,
      AnnotationsService,
      MonitorsService,
      NotifiersService,
    ],
  },
  compactor: { controllers: [], providers: [] },
};

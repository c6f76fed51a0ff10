import { AlertingLogController, AlertingService } from '@quarry/alerting';
import type { RoleModule } from '@quarry/server';
import { CLUSTER_LIMITS } from './cluster-limits.provider';
import { AnnotationsController } from './annotations.controller';
import { AnnotationsService } from './annotations.service';
import { ClusterController } from './cluster.controller';
import { DashboardsController } from './dashboards.controller';
import { DashboardsService } from './dashboards.service';
import { DatasetFieldsController } from './dataset-fields.controller';
import { DatasetTrimController } from './dataset-trim.controller';
import { DatasetsController } from './datasets.controller';
import { DatasetsService } from './datasets.service';
import { GroupsController } from './groups.controller';
import { MonitorsController } from './monitors.controller';
import { MonitorsService } from './monitors.service';
import { NotifiersController } from './notifiers.controller';
import { NotifiersService } from './notifiers.service';
import { OrgsController } from './orgs.controller';
import { RolesController } from './roles.controller';
import { StarredQueriesController } from './starred-queries.controller';
import { StarredQueriesService } from './starred-queries.service';
import { TokensController } from './tokens.controller';
import { TokensService } from './tokens.service';
import { UserController } from './user.controller';
import { UsersController } from './users.controller';
import { VirtualFieldsController } from './vfields.controller';
import { VirtualFieldsService } from './vfields.service';
import { ViewsController } from './views.controller';
import { ViewsService } from './views.service';

/**
 * The management role's HTTP surface: every `/v2` family and the `/v1` dataset and token routes; and the
 * monitor scheduler, which runs wherever the management role does.
 */
export const MANAGEMENT_ROLE: RoleModule = {
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
    ClusterController,
    // The run and delivery logs of libs/alerting (Quarry extensions of /v2).
    AlertingLogController,
  ],
  providers: [
    DatasetsService,
    TokensService,
    DashboardsService,
    ViewsService,
    VirtualFieldsService,
    StarredQueriesService,
    AnnotationsService,
    MonitorsService,
    NotifiersService,
    // Runs the monitors (libs/alerting): in the standalone server and on every management node.
    AlertingService,
    // Cluster shape: rate limits shared by the region's nodes.
    CLUSTER_LIMITS,
  ],
};

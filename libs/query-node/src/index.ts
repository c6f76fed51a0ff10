import type { RoleModule } from '@quarry/server';
import { CLUSTER_LIMITS } from './cluster-limits.provider';
import { BatchQueryController } from './batch-query.controller';
import { BatchQueryService } from './batch-query.service';
import { InternalQueryController } from './internal-query.controller';
import { LegacyQueryController } from './legacy-query.controller';
import { LegacyQueryService } from './legacy-query.service';
import { MetricsInfoController } from './metrics-info.controller';
import { MetricsInfoService } from './metrics-info.service';
import { MonitorQueryController } from './monitor-query.controller';
import { MplQueryController } from './mpl-query.controller';
import { MplQueryService } from './mpl-query.service';
import { QueryController } from './query.controller';
import { QueryService } from './query.service';

/** The query role's HTTP surface: APL, legacy structured queries, batches, MPL and the metrics info endpoints. */
export const QUERY_ROLE: RoleModule = {
  controllers: [
    QueryController,
    LegacyQueryController,
    BatchQueryController,
    MetricsInfoController,
    MplQueryController,
    InternalQueryController,
    // Monitor runs sent by the management nodes' scheduler (libs/alerting): what a user query sees.
    MonitorQueryController,
  ],
  providers: [
    QueryService,
    LegacyQueryService,
    BatchQueryService,
    MetricsInfoService,
    MplQueryService,
    // Cluster shape: rate limits and query-cost budgets shared by the region's nodes.
    CLUSTER_LIMITS,
  ],
};

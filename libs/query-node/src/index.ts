import type { RoleModule } from '@quarry/server';
import { InternalQueryController } from './internal-query.controller';
import { MetricsInfoController } from './metrics-info.controller';
import { MetricsInfoService } from './metrics-info.service';
import { MplQueryController } from './mpl-query.controller';
import { MplQueryService } from './mpl-query.service';
import { QueryController } from './query.controller';
import { QueryService } from './query.service';

/** The query role's HTTP surface: APL, MPL and the metrics info endpoints. */
export const QUERY_ROLE: RoleModule = {
  controllers: [QueryController, MetricsInfoController, MplQueryController, InternalQueryController],
  providers: [QueryService, MetricsInfoService, MplQueryService],
};

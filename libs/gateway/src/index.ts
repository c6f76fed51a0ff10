export { startGateway, type RunningGateway } from './gateway';
export {
  loadGatewayConfig,
  gatewayConfigHelp,
  GATEWAY_CONFIG_VARIABLES,
  type GatewayConfig,
  type GatewayLogLevel,
} from './config';
export { classifyRoute, ROUTE_TABLE, POOLS, type PoolName, type RouteTarget, type RouteRule } from './routes';

/* tslint:disable */
/* eslint-disable */
export * from './AdminApi';
export * from './CompletionsApi';
export * from './ContestsApi';
export * from './EventsApi';
export * from './HealthApi';
export * from './LeaderboardsApi';
export * from './LeaguesApi';
export * from './UsersApi';

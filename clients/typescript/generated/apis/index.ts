/* tslint:disable */
/* eslint-disable */
export * from './AdminApi';
export * from './CompletionsApi';
export * from './ContestsApi';
export * from './EventsApi';
export * from './GoalsApi';
export * from './HealthApi';
export * from './LeaderboardsApi';
export * from './LeaguesApi';
export * from './UsersApi';

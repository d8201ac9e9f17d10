/* tslint:disable */
/* eslint-disable */
export * from './AdminApi.js';
export * from './CompletionsApi.js';
export * from './ContestsApi.js';
export * from './EventsApi.js';
export * from './GoalsApi.js';
export * from './HealthApi.js';
export * from './LeaderboardsApi.js';
export * from './LeaguesApi.js';
export * from './UsersApi.js';

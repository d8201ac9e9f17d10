// Starts Swagger UI (swagger-ui-bundle.js, loaded before this file) on this server's own OpenAPI document.
// No ?url= or ?configUrl= from the address is honoured (queryConfigEnabled stays false), no validator badge
// calls out, and the credential entered under "Authorize" is not persisted past the page.
"use strict";
window.addEventListener("DOMContentLoaded", function () {
    window.ui = window.SwaggerUIBundle({
        url: "/openapi.json",
        dom_id: "#swagger-ui",
        layout: "BaseLayout",
        deepLinking: true,
        docExpansion: "list",
        defaultModelsExpandDepth: 0,
        displayRequestDuration: true,
        filter: true,
        tryItOutEnabled: false,
        persistAuthorization: false,
        queryConfigEnabled: false,
        validatorUrl: null,
        withCredentials: false,
    });
});

import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { DIALECTS } from '../../inference/dialects.js';
import { inferenceRoute } from './inference-route.js';
import { ImageGenerationsReplySchema, ImagesReplySchema } from '../../dialects/images/reply-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { inferenceReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

export function registerImageRoutes(app: FastifyInstance, services: Services): void {
  inferenceRoute(app, services, {
    url: '/images',
    summary: 'Pictures from a prompt (the hosted marketplace\'s shape)',
    operationId: 'createImages',
    tag: TAGS.images,
    answers: { success: { 200: inferenceReply(ImagesReplySchema, 'The pictures\' bytes, with the counts and the exact cost') }, errors: INFERENCE_REFUSALS },
    dialect: DIALECTS.images,
  });
  inferenceRoute(app, services, {
    url: '/images/generations',
    summary: 'Pictures from a prompt (OpenAI\'s shape)',
    operationId: 'createImageGeneration',
    tag: TAGS.images,
    answers: { success: { 200: inferenceReply(ImageGenerationsReplySchema, 'The pictures, with the counts and the exact cost') }, errors: INFERENCE_REFUSALS },
    dialect: DIALECTS.imageGenerations,
  });
}
